package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim trace import} of captures and {@code nicsim trace dump} of the result, then
 * {@code nicsim replay} of a capture; line counts and lines derived by hand from the captures'
 * opcodes (the derivation rules are {@code PccEventDeriver}'s; the per-capture walk-through is in the
 * traces module's {@code EventDerivationTest}). First the project's own captures
 * ({@link FixtureCaptures}, written into the test's directory):
 * <ul>
 *   <li>the Soft-RoCE-like exchange: 5 UD SENDs on QP1 give nothing; WRITE Only -> TX_BURST; its ACK
 *       -> ACK + RTT_RESPONSE; READ Request -> TX_BURST; READ Response First -> RTT_RESPONSE = 5
 *       events for QP 0x11 = 17; dump = header + 5 = 6 lines;</li>
 *   <li>the CNP: one CNP to QP 0x2A5 = 677 with BECN: 1 event, 2 lines.</li>
 * </ul>
 * Then the real captures beside the repository ({@code ../shared/data/captures}, read in place;
 * skipped when absent):
 * <ul>
 *   <li>softroce-write-read: 5 UD SENDs on QP1 give nothing; WRITE Only -> TX_BURST; its ACK ->
 *       ACK + RTT_RESPONSE (AckReq round trip); READ Request -> TX_BURST; READ Response First ->
 *       RTT_RESPONSE = 5 events for QP 0x11 = 17; dump = header + 5 = 6 lines.</li>
 *   <li>softroce-write-read-with-arp: the same exchange (ARP skipped) for QP 0x17 = 23: 6 lines.</li>
 *   <li>cnp-connectx4lx: one CNP to QP 0x118 = 280 with BECN: 1 event, 2 lines.</li>
 *   <li>infiniband-erf: 10 RC SEND Only (each its own burst: seconds apart) -> 10 TX_BURST; 9 ACKs,
 *       each new and answering an AckReq SEND -> 9 ACK + 9 RTT_RESPONSE = 28 events, 29 lines.</li>
 * </ul>
 */
class TraceImportTest {
    @TempDir
    Path dir;

    private List<String> importAndDump(final String capture, final String expectedEventsLine) {
        return importAndDump(TraceCli.capture(capture), expectedEventsLine);
    }

    private List<String> importAndDump(final Path capture, final String expectedEventsLine) {
        final Path trace = dir.resolve(capture.getFileName() + ".trace");
        final Cli.Outcome imp = Cli.run("trace", "import", capture.toString(), "--to", trace.toString());
        assertEquals(0, imp.exitCode(), imp.err());
        assertEquals("", imp.err());
        assertTrue(imp.out().contains(expectedEventsLine), imp.out());
        assertTrue(imp.out().contains("trace written to " + trace), imp.out());
        final Cli.Outcome dump = Cli.run("trace", "dump", trace.toString());
        assertEquals(0, dump.exitCode(), dump.err());
        final List<String> lines = dump.outLines();
        assertEquals("# nicsim-pcc-trace v3 origin=capture input=" + capture, lines.get(0));
        return lines;
    }

    @Test
    void softroceFixture() {
        final List<String> lines = importAndDump(FixtureCaptures.softroce(dir.resolve("softroce.pcap")),
            "events: TX_BURST 2, ACK 1, NACK 0, CNP 0, RTT_RESPONSE 2, TIMER 0 (5) for 1 flows on 1 requester addresses");
        // times from packet 1: WRITE 1000 us, ACK 1020 us, READ request 1600 us, READ response 1619 us;
        // PSN 0xABCDEF = 11259375; the RTT samples' receive/response-send stamps are the midpoints
        // (1000 + 1020) / 2 = 1010 us and (1600 + 1619) / 2 = 1609.5 us; WRITE payload 18 bytes
        assertEquals(List.of(
            "event time_ns=1000000 src=0 qpn=17 type=TX_BURST subtype=0 sn=11259375 first_sn=11259375 num_coalesced=1"
                + " flags=0x02 port=0 ts_ns=1000000 first_ts_ns=1000000 tx_bytes=18 tx_packets=1 rtt_request_send_ns=0"
                + " rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "event time_ns=1020000 src=0 qpn=17 type=ACK subtype=0 sn=11259375 first_sn=11259375 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=1020000 first_ts_ns=1020000 tx_bytes=0 tx_packets=0"
                + " rtt_request_send_ns=1000000 rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "event time_ns=1020000 src=0 qpn=17 type=RTT_RESPONSE subtype=0 sn=11259375 first_sn=11259375 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=1020000 first_ts_ns=1020000 tx_bytes=0 tx_packets=0"
                + " rtt_request_send_ns=1000000 rtt_request_receive_ns=1010000 rtt_response_send_ns=1010000",
            "event time_ns=1600000 src=0 qpn=17 type=TX_BURST subtype=0 sn=11259376 first_sn=11259376 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=1600000 first_ts_ns=1600000 tx_bytes=0 tx_packets=1 rtt_request_send_ns=0"
                + " rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "event time_ns=1619000 src=0 qpn=17 type=RTT_RESPONSE subtype=0 sn=11259376 first_sn=11259376 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=1619000 first_ts_ns=1619000 tx_bytes=0 tx_packets=0"
                + " rtt_request_send_ns=1600000 rtt_request_receive_ns=1609500 rtt_response_send_ns=1609500"),
            lines.subList(1, lines.size()));
    }

    @Test
    void cnpFixture() {
        final List<String> lines = importAndDump(FixtureCaptures.cnp(dir.resolve("cnp.pcap")),
            "events: TX_BURST 0, ACK 0, NACK 0, CNP 1, RTT_RESPONSE 0, TIMER 0 (1) for 1 flows on 1 requester addresses");
        // flags 0x06 = BECN (0x04) | first in flow (0x02); sn 0: the flow sent nothing in the capture
        assertEquals(List.of("event time_ns=0 src=0 qpn=677 type=CNP subtype=0 sn=0 first_sn=0 num_coalesced=1"
            + " flags=0x06 port=0 ts_ns=0 first_ts_ns=0 tx_bytes=0 tx_packets=0 rtt_request_send_ns=0"
            + " rtt_request_receive_ns=0 rtt_response_send_ns=0"), lines.subList(1, lines.size()));
    }

    // ---------------------------------------------------------------- the real captures (../shared)

    @Test
    void softroceWriteRead() {
        final List<String> lines = importAndDump("softroce-write-read.pcap",
            "events: TX_BURST 2, ACK 1, NACK 0, CNP 0, RTT_RESPONSE 2, TIMER 0 (5) for 1 flows on 1 requester addresses");
        // times from packet 1: WRITE 4686 us, ACK 4706 us, READ request 5320 us, READ response 5339 us;
        // PSN 0x8C84DD = 9209053; the RTT samples' receive/response-send stamps are the midpoints
        // (4686 + 4706) / 2 = 4696 us and (5320 + 5339) / 2 = 5329.5 us; WRITE payload = RETH DMA length 18
        assertEquals(List.of(
            "event time_ns=4686000 src=0 qpn=17 type=TX_BURST subtype=0 sn=9209053 first_sn=9209053 num_coalesced=1"
                + " flags=0x02 port=0 ts_ns=4686000 first_ts_ns=4686000 tx_bytes=18 tx_packets=1 rtt_request_send_ns=0"
                + " rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "event time_ns=4706000 src=0 qpn=17 type=ACK subtype=0 sn=9209053 first_sn=9209053 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=4706000 first_ts_ns=4706000 tx_bytes=0 tx_packets=0"
                + " rtt_request_send_ns=4686000 rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "event time_ns=4706000 src=0 qpn=17 type=RTT_RESPONSE subtype=0 sn=9209053 first_sn=9209053 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=4706000 first_ts_ns=4706000 tx_bytes=0 tx_packets=0"
                + " rtt_request_send_ns=4686000 rtt_request_receive_ns=4696000 rtt_response_send_ns=4696000",
            "event time_ns=5320000 src=0 qpn=17 type=TX_BURST subtype=0 sn=9209054 first_sn=9209054 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=5320000 first_ts_ns=5320000 tx_bytes=0 tx_packets=1 rtt_request_send_ns=0"
                + " rtt_request_receive_ns=0 rtt_response_send_ns=0",
            "event time_ns=5339000 src=0 qpn=17 type=RTT_RESPONSE subtype=0 sn=9209054 first_sn=9209054 num_coalesced=1"
                + " flags=0x00 port=0 ts_ns=5339000 first_ts_ns=5339000 tx_bytes=0 tx_packets=0"
                + " rtt_request_send_ns=5320000 rtt_request_receive_ns=5329500 rtt_response_send_ns=5329500"),
            lines.subList(1, lines.size()));
    }

    @Test
    void softroceWriteReadWithArp() {
        final List<String> lines = importAndDump("softroce-write-read-with-arp.pcap",
            "events: TX_BURST 2, ACK 1, NACK 0, CNP 0, RTT_RESPONSE 2, TIMER 0 (5) for 1 flows on 1 requester addresses");
        assertEquals(1 + 5, lines.size());
        for (final String l : lines.subList(1, lines.size())) {
            assertTrue(l.contains(" src=0 qpn=23 "), l); // QP 0x17, named by the ACK and the READ responses
        }
    }

    @Test
    void cnpConnectx4lx() {
        final List<String> lines = importAndDump("cnp-connectx4lx.pcap",
            "events: TX_BURST 0, ACK 0, NACK 0, CNP 1, RTT_RESPONSE 0, TIMER 0 (1) for 1 flows on 1 requester addresses");
        // flags 0x06 = BECN (0x04) | first in flow (0x02); sn 0: the flow sent nothing in the capture
        assertEquals(List.of("event time_ns=0 src=0 qpn=280 type=CNP subtype=0 sn=0 first_sn=0 num_coalesced=1"
            + " flags=0x06 port=0 ts_ns=0 first_ts_ns=0 tx_bytes=0 tx_packets=0 rtt_request_send_ns=0"
            + " rtt_request_receive_ns=0 rtt_response_send_ns=0"), lines.subList(1, lines.size()));
    }

    @Test
    void infinibandErf() {
        final List<String> lines = importAndDump("infiniband-erf.pcap",
            "events: TX_BURST 10, ACK 9, NACK 0, CNP 0, RTT_RESPONSE 9, TIMER 0 (28) for 3 flows on 2 requester addresses");
        assertEquals(1 + 28, lines.size());
        assertEquals(10, lines.stream().filter(l -> l.contains("type=TX_BURST")).count());
        assertEquals(9, lines.stream().filter(l -> l.contains("type=ACK")).count());
        assertEquals(9, lines.stream().filter(l -> l.contains("type=RTT_RESPONSE")).count());
    }

    @Test
    void aCaptureReplaysLikeItsImportedTrace() throws IOException {
        // the fixture's 5 events; first: TX_BURST of QP 17 at 1000 us, PSN 11259375
        assertReplaysLikeItsImportedTrace(FixtureCaptures.softroce(dir.resolve("softroce.pcap")),
            "1000000,17,TX_BURST,0,11259375,1", "1000000,17,100000000000,0,0");
    }

    @Test
    void realCaptureReplaysLikeItsImportedTrace() throws IOException {
        // first event: TX_BURST of QP 17 at 4686 us, PSN 9209053
        assertReplaysLikeItsImportedTrace(TraceCli.capture("softroce-write-read.pcap"),
            "4686000,17,TX_BURST,0,9209053,1", "4686000,17,100000000000,0,0");
    }

    /**
     * The 5 events of a Soft-RoCE exchange through DCQCN on the ideal processor: one result for the
     * flow start (at the first event) and one per event = 6 results; the same events imported first
     * give the same two files. The flow starts at the first event at the default 100 Gb/s line rate,
     * so DCQCN's initial result is line rate with no window.
     */
    private void assertReplaysLikeItsImportedTrace(final Path capture, final String firstEvent, final String firstResult)
        throws IOException {
        final Path direct = dir.resolve("direct");
        final Cli.Outcome a = Cli.run("replay", capture.toString(), "--algorithm", "dcqcn", "--processor", "ideal",
            "--out", direct.toString());
        assertEquals(0, a.exitCode(), a.err());
        assertEquals(1 + 5, TraceCli.lines(direct.resolve("events.csv")).size());
        assertEquals(1 + 6, TraceCli.lines(direct.resolve("results.csv")).size());
        assertEquals(firstEvent, TraceCli.lines(direct.resolve("events.csv")).get(1));
        assertEquals(firstResult, TraceCli.lines(direct.resolve("results.csv")).get(1));

        final Path trace = dir.resolve("imported");
        assertEquals(0, Cli.run("trace", "import", capture.toString(), "--to", trace.toString()).exitCode());
        final Path viaTrace = dir.resolve("via-trace");
        final Cli.Outcome b = Cli.run("replay", trace.toString(), "--algorithm", "dcqcn", "--processor", "ideal",
            "--out", viaTrace.toString());
        assertEquals(0, b.exitCode(), b.err());
        assertArrayEquals(Files.readAllBytes(direct.resolve("events.csv")), Files.readAllBytes(viaTrace.resolve("events.csv")));
        assertArrayEquals(Files.readAllBytes(direct.resolve("results.csv")), Files.readAllBytes(viaTrace.resolve("results.csv")));
    }

    @Test
    void aFirmwareModelWithoutFirmwareIsRefused() {
        // --firmware-model names the machine of --firmware's cores; a Java algorithm has none, so it
        // would be ignored silently: refused, one line, nothing written
        final Path out = dir.resolve("nofw");
        final Cli.Outcome o = Cli.run("replay", FixtureCaptures.softroce(dir.resolve("softroce.pcap")).toString(),
            "--algorithm", "dcqcn", "--firmware-model", "e31", "--out", out.toString());
        assertEquals(2, o.exitCode(), o.err());
        assertEquals("nicsim: --firmware-model: only with --firmware (a Java --algorithm has no machine model)", o.err().strip());
        assertFalse(Files.exists(out.resolve("events.csv")));
    }

    @Test
    void theEmulatorChargesCyclesForEveryEvent() {
        // default processor for a capture: the uNIC emulator; each of the fixture's 5 events costs
        // cycles (dispatch + context fetch + handler + write-back > 0), the flow start costs none
        final Path out = dir.resolve("emu");
        final Cli.Outcome o = Cli.run("replay", FixtureCaptures.softroce(dir.resolve("softroce.pcap")).toString(),
            "--algorithm", "dcqcn", "--out", out.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains("on the emulator processor: 6 results"), o.out());
        final List<String> results = TraceCli.lines(out.resolve("results.csv"));
        assertEquals(1 + 6, results.size());
        assertTrue(results.get(1).endsWith(",0"), results.get(1));
        for (final String r : results.subList(2, results.size())) {
            assertTrue(Long.parseLong(r.substring(r.lastIndexOf(',') + 1)) > 0, r);
        }
    }
}
