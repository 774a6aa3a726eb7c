package dev.nicsim.traces.replay;

import dev.nicsim.cli.Cli;
import dev.nicsim.traces.CaptureDecoder;
import dev.nicsim.traces.CaptureException;
import dev.nicsim.traces.CaptureStats;
import dev.nicsim.traces.RocePacket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nicsim run --pcap FILE --pcap-at POINT} read back with the traces module's own
 * {@link CaptureDecoder}: every ICRC (and IPv4 header checksum) is valid, and the frames of each
 * direction, counted by opcode, equal the NIC counters of the tapped host.
 *
 * <p>Scenario: a star of 5 hosts at 100 Gb/s, hosts 0..3 each WRITE 50,000 bytes to host 4 at time
 * 0; DCQCN with WRED marking from 5 KB and PFC on priority 3 with a 12 KB xoff, so CE marks, CNPs
 * and pause frames all appear. By hand: 50,000 / 1024 -> 49 packets per flow (48 x 1024 + 848):
 * WRITE First, 47 Middle, Last; the RETH of the First carries the message size 50,000; lossless,
 * so host 4 receives 4 x 49 = 196 data packets and, with per-packet ACKs, sends 196 ACKs. Data and
 * ACKs carry DSCP 26 / PCP 3, CNPs DSCP 48 / PCP 6 (the NIC defaults); host h is 10.0.0.(h+1).
 */
class PcapCaptureTest {
    static final String SCENARIO = """
        name: pcap-incast
        seed: 1
        stop_time_us: 2000
        topology:
          type: star
          hosts: 5
          host_link: {rate_gbps: 100, delay_ns: 1000}
        switch:
          pfc: {enabled: true, priorities: [3], mode: static, xoff_bytes: 12000, xon_bytes: 8000, headroom_bytes: 60000}
          wred: {priorities: [3], kmin_bytes: 5000, kmax_bytes: 20000, pmax: 0.2}
        nic:
          cnp_interval_us: 4
        algorithm:
          name: dcqcn
        workload:
          type: incast
          senders: 4
          size_bytes: 50000
        """;

    @TempDir
    Path dir;

    /** Counts decoded frames by direction relative to one host. */
    private static final class Directions {
        final int hostIp;
        final long[] fromHost = new long[256];
        final long[] toHost = new long[256];
        long ceToHost;
        long pfcToHost;
        long pfcPriority3;
        long rethOfWriteFirst = -1;
        long dataDscp26Pcp3;
        long cnpDscp48Pcp6;

        Directions(final int host) {
            this.hostIp = PcapTap.hostIpv4(host);
        }

        void onPacket(final RocePacket p) {
            if (p.kind == RocePacket.KIND_PAUSE) {
                // PFC frames are link-local; on a host's link the switch sends them to the host
                pfcToHost++;
                if ((p.pfcClassEnable & (1 << 3)) != 0) {
                    pfcPriority3++;
                }
                return;
            }
            final boolean from = p.srcIpv4() == hostIp;
            (from ? fromHost : toHost)[p.opcode]++;
            if (!from && p.ecn == 3) {
                ceToHost++;
            }
            if (p.opcode == 0x06) {
                rethOfWriteFirst = p.rethDmaLength;
            }
            if (p.opcode <= 0x11 && p.dscp == 26 && p.pcp == 3) {
                dataDscp26Pcp3++;
            }
            if (p.opcode == 0x81 && p.dscp == 48 && p.pcp == 6 && p.becn) {
                cnpDscp48Pcp6++;
            }
        }

        long dataFrom() {
            return fromHost[0x06] + fromHost[0x07] + fromHost[0x08] + fromHost[0x0A];
        }

        long dataTo() {
            return toHost[0x06] + toHost[0x07] + toHost[0x08] + toHost[0x0A];
        }
    }

    private Path runWithPcap(final String at, final String name) throws IOException {
        final Path scenario = dir.resolve("s.yaml");
        if (!Files.exists(scenario)) {
            Files.writeString(scenario, SCENARIO);
        }
        final Path out = dir.resolve("run-" + name);
        final Path pcap = out.resolve(name + ".pcap");
        // every counter, zeros included (sampling.counters: all): the link's frames are compared with
        // the counters whether they moved or not (e.g. tx_nak_packets 0 against no NAK captured)
        final Cli.Outcome o = Cli.run("run", scenario.toString(), "--out", out.toString(), "--no-progress",
            "--pcap", pcap.toString(), "--pcap-at", at, "--set", "sampling.counters=all");
        assertEquals(0, o.exitCode(), o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("written to " + pcap), o.out());
        return pcap;
    }

    private static CaptureStats decode(final Path pcap, final Directions d) throws CaptureException {
        final CaptureStats s = new CaptureDecoder().decode(pcap, d::onPacket);
        // every frame decodes; every RoCEv2 ICRC and IPv4 header checksum is valid
        assertEquals(0, s.skippedTotal(), s.report());
        assertEquals(s.transportPackets(), s.icrcOk(), s.report());
        assertEquals(0, s.icrcBad());
        assertEquals(0, s.icrcNotChecked());
        assertEquals(0, s.ipChecksumBad());
        return s;
    }

    @Test
    void theReceiversLinkMatchesItsCounters() throws IOException, CaptureException {
        final Path pcap = runWithPcap("host:4", "h4");
        final Directions d = new Directions(4);
        final CaptureStats s = decode(pcap, d);
        final Map<String, Long> c = TraceCli.counters(pcap.getParent());
        assertEquals(196, c.get("host4/rx_data_packets"));                 // by hand, see the class comment
        assertEquals(c.get("host4/rx_data_packets"), d.dataTo());
        assertEquals(4, d.toHost[0x06]);                                    // one WRITE First per flow
        assertEquals(4 * 47, d.toHost[0x07]);
        assertEquals(4, d.toHost[0x08]);
        assertEquals(50_000, d.rethOfWriteFirst);
        assertEquals(c.get("host4/tx_ack_packets") + c.get("host4/tx_nak_packets"), d.fromHost[0x11]);
        assertEquals(196, d.fromHost[0x11]);
        assertEquals(c.get("host4/np_cnp_sent"), d.fromHost[0x81]);
        assertTrue(d.fromHost[0x81] > 0, "CE marks make the receiver send CNPs");
        // CE marks set by the switch arrive in the captured frames
        assertEquals(c.get("host4/ecn_ce_received"), d.ceToHost);
        assertTrue(d.ceToHost > 0);
        assertEquals(c.get("host4/np_ecn_marked_roce_packets"), d.ceToHost);
        assertEquals(0, d.dataFrom());
        assertEquals(196 + 196, d.dataDscp26Pcp3);
        assertEquals(d.fromHost[0x81], d.cnpDscp48Pcp6);
        assertEquals(196 + 196 + d.fromHost[0x81], s.transportPackets());
        assertEquals(c.get("host4/pfc_pause_received"), d.pfcToHost);

        // the same link seen from the switch side (port 4 of sw0, by name or index) is the same file
        final byte[] bytes = Files.readAllBytes(pcap);
        assertArrayEquals(bytes, Files.readAllBytes(runWithPcap("switch:sw0:port:4", "sw0p4")));
        assertArrayEquals(bytes, Files.readAllBytes(runWithPcap("switch:0:port:4", "s0p4")));
    }

    @Test
    void aSendersLinkMatchesItsCountersIncludingPauseFrames() throws IOException, CaptureException {
        final Path pcap = runWithPcap("host:0", "h0");
        final Directions d = new Directions(0);
        decode(pcap, d);
        final Map<String, Long> c = TraceCli.counters(pcap.getParent());
        assertEquals(49, c.get("host0/tx_data_packets"));                  // by hand: 49 packets, no loss
        assertEquals(c.get("host0/tx_data_packets"), d.dataFrom());
        assertEquals(1, d.fromHost[0x06]);
        assertEquals(47, d.fromHost[0x07]);
        assertEquals(1, d.fromHost[0x08]);
        assertEquals(c.get("host0/rx_ack_packets") + c.get("host0/rx_nak_packets"), d.toHost[0x11]);
        assertEquals(c.get("host0/rp_cnp_handled") + c.get("host0/rp_cnp_ignored"), d.toHost[0x81]);
        assertEquals(c.get("host0/pfc_pause_received"), d.pfcToHost);
        assertTrue(d.pfcToHost > 0, "the 12 KB xoff pauses the senders");
        assertEquals(d.pfcToHost, d.pfcPriority3);                         // PFC on priority 3 only
        assertEquals(0, d.fromHost[0x11]);
        assertEquals(0, d.fromHost[0x81]);
    }
}
