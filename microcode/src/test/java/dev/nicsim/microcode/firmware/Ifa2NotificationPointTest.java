package dev.nicsim.microcode.firmware;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.riscv.CycleModel;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The switch-telemetry pair of the DOCA PCC fact sheet's Addendum B, with test programs written from it
 * (committed ELFs of {@code firmware/testfw/doca_np_ifa2.c} and {@code doca_rp_ifa2.c}), against the
 * hand-derived vectors of B.8: the NP gets IFA2 requests laid out as B.2 says (IFA header after IPv4,
 * {@code get_l4_header} = the UDP header after it, the metadata header 8 bytes later, records newest
 * first), its H0 from the host mailbox (B.5: {@code FE 00 00 00}), and answers with B.4's 12 bytes; the RP
 * reads those bytes natively (B.6) and runs B.7's rate rule.
 */
class Ifa2NotificationPointTest {
    private static final byte[] MAILBOX_FE = {(byte) 0xFE, 0, 0, 0};

    /** A 32-byte record as the switch stores it (4 longs, eight bytes each, big-endian). */
    private static long[] record(final byte[] r) {
        final long[] w = new long[4];
        for (int i = 0; i < 32; i++) {
            w[i / 8] |= (long) (r[i] & 0xFF) << (56 - 8 * (i % 8));
        }
        return w;
    }

    /** B.8's record: byte 3 = 0x15 (ID 5, port type 1), egress port 7, and the given TX ns, cell count, TX bytes. */
    private static byte[] b8(final int txNs, final int cells, final int txBytes) {
        final byte[] r = new byte[32];
        r[3] = 0x15;
        r[26] = 0;
        r[27] = 7;
        put32(r, 18, txNs);
        r[22] = (byte) (cells >>> 8);
        r[23] = (byte) cells;
        put32(r, 28, txBytes);
        return r;
    }

    private static void put32(final byte[] b, final int at, final int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static FirmwareNotificationPoint np() {
        return FirmwareNotificationPoint.load(FirmwareDifferentialTest.elf("test/doca_np_ifa2.elf"), 100_000, CycleModel.bf3Dpa());
    }

    /** One probe with one or more records (in insertion order), Hop Limit as it arrives, at a time in us. */
    private static int probe(final FirmwareNotificationPoint.Nic nic, final int hopLimit, final long nowUs, final long[]... records) {
        final long[] all = new long[4 * Math.max(1, records.length)];
        for (int k = 0; k < records.length; k++) {
            System.arraycopy(records[k], 0, all, 4 * k, 4);
        }
        return nic.handle(0, 0x1234_5678, 1, 0, 0xC000, 26, 2, nowUs * 1000, hopLimit, 0xF, all, records.length);
    }

    private static String response(final FirmwareNotificationPoint.Nic nic) {
        return String.format("%08X %08X %08X", nic.word0(), nic.word1(), nic.word2());
    }

    @Test
    void theB8VectorsBroadcomFormatFirstSampleThenDeltas() {
        final FirmwareNotificationPoint np = np();
        np.hostMailbox(MAILBOX_FE);
        final FirmwareNotificationPoint.Nic nic = np.forNic(null);
        // P1 at 100 us: one switch (Hop Limit 0xFD, n = 1): first sample of key 5 | 7 << 10, valid 0, deltas = raw
        assertEquals(FirmwareNotificationPoint.OK, probe(nic, 0xFD, 100, record(b8(1_000_000, 0x0002, 5_000_000))));
        assertEquals("00020001 004C4B40 000F4240", response(nic));
        // P2 at 2,100 us (2 ms later, inside 5 s): valid, port type 1, deltas 25,000,000 B / 2,000,000 ns, qlen 0x100
        assertEquals(FirmwareNotificationPoint.OK, probe(nic, 0xFD, 2_100, record(b8(3_000_000, 0x0100, 30_000_000))));
        assertEquals("01000005 017D7840 001E8480", response(nic));
        assertEquals(1, np.mailboxSent());
        assertEquals(0, np.mailboxFailed());
        assertEquals(2, np.ifa2Probes());
        assertEquals(2, np.ifa2ProbesWithRecords());
        assertEquals(1, np.ifa2MaxRecords());
        assertTrue(np.summaryLine().contains("2 IFA2 probes, 2 with per-hop records, at most 1 hops, 1 mailbox messages, 0 failed"),
            np.summaryLine());
    }

    @Test
    void theB8MellanoxVectorTwoSwitchesAndAnOlderRecordWritesOnlyTheIndex() {
        final FirmwareNotificationPoint np = np();
        np.hostMailbox(MAILBOX_FE);
        final FirmwareNotificationPoint.Nic nic = np.forNic(null);
        final byte[] newest = new byte[32];
        newest[3] = 0x15;
        newest[8] = (byte) 0x80;
        newest[11] = 1;          // Mellanox format: Q = 0x0001 << 16 | 0x2345
        newest[22] = 0x23;
        newest[23] = 0x45;
        put32(newest, 18, 1000);
        final byte[] older = new byte[32]; // the first switch's record: the NP reads only the newest
        older[3] = (byte) 0xFF;
        put32(older, 18, 77);
        // two switches: Hop Limit 0xFC (n = 2, index 1); the newest record (inserted last) is read
        assertEquals(FirmwareNotificationPoint.OK, probe(nic, 0xFC, 50, record(older), record(newest)));
        assertEquals("01230101 00000000 000003E8", response(nic));
        put32(newest, 18, 500); // older than the stored 1,000 ns by less than 2^32 - 2e9: only the index
        assertEquals(FirmwareNotificationPoint.OK, probe(nic, 0xFC, 60, record(older), record(newest)));
        assertEquals("00000100 00000000 00000000", response(nic));
        // the request as the NP read it: IFA header after IPv4 (version 2, GNS 0xF, next header UDP, Max Length 40),
        // UDP at 38, metadata header at 46 (Hop Limit 0xFC, Current Length 16), the newest record first at 50
        assertEquals(253, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 23, 1));
        assertEquals(0x2F, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 34, 1));
        assertEquals(17, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 35, 1));
        assertEquals(40, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 37, 1));
        assertEquals(0xB712, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 40, 2)); // UDP dst 4791
        assertEquals(0xFC, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 48, 1));
        assertEquals(16, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 49, 1));
        assertEquals(0x15, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 53, 1));
        assertEquals(0xFF, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 85, 1));
        // IPv4 total length = 70 + 8 + 64 - 14 = 128, and the send timestamp is the last word (big-endian)
        assertEquals(0x8000, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 16, 2)); // 00 80 read little-endian
        assertEquals(Integer.reverseBytes(0x1234_5678) & 0xFFFF_FFFFL, nic.symbolLoad(FirmwareNotificationPoint.NP_PACKETS, 138, 4));
        assertEquals(2, np.ifa2MaxRecords());
    }

    @Test
    void withoutTheMailboxOrWithNoHopCountedTheNpWritesNothing() {
        final FirmwareNotificationPoint np = np();
        final FirmwareNotificationPoint.Nic nic = np.forNic(null);
        assertEquals(FirmwareNotificationPoint.OK, probe(nic, 0xFD, 100, record(b8(1_000_000, 2, 5_000_000))));
        assertEquals("00000000 00000000 00000000", response(nic)); // no mailbox: not ready
        final FirmwareNotificationPoint np2 = np();
        np2.hostMailbox(MAILBOX_FE);
        final FirmwareNotificationPoint.Nic nic2 = np2.forNic(null);
        assertEquals(FirmwareNotificationPoint.OK, probe(nic2, 0xFE, 100)); // no switch inserted: n = 0
        assertEquals("00000000 00000000 00000000", response(nic2));
        assertEquals(1, np2.ifa2Probes());
        assertEquals(0, np2.ifa2ProbesWithRecords());
        // a mailbox of 3 bytes: the callback FAILs (B.5), the host counts it, and probes stay unanswered
        final FirmwareNotificationPoint np3 = np();
        np3.hostMailbox(new byte[] {(byte) 0xFE, 0, 0});
        final FirmwareNotificationPoint.Nic nic3 = np3.forNic(null);
        assertEquals(FirmwareNotificationPoint.OK, probe(nic3, 0xFD, 100, record(b8(1_000_000, 2, 5_000_000))));
        assertEquals("00000000 00000000 00000000", response(nic3));
        assertEquals(1, np3.mailboxFailed());
        assertThrows(IllegalStateException.class, () -> FirmwareNotificationPoint.load(
            FirmwareDifferentialTest.elf("test/doca_np_faults.elf"), 100_000, CycleModel.bf3Dpa()).hostMailbox(MAILBOX_FE));
    }

    // ---- the RP (B.6/B.7) on the direct processor: B.8's RP vectors ----

    record Got(int rate, boolean probe) {
    }

    private final List<Got> got = new ArrayList<>();
    private final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0);

    private void rtt(final DirectCcProcessor d, final int w0, final int w1, final int w2, final int nowNs) {
        d.offer(ev.reset(PccEventType.RTT_RESPONSE, 0, 7, 1, nowNs).rtt(w0, w1, w2), nowNs * 1000L);
    }

    @Test
    void theRpReadsTheNpBytesNativelyAndRunsTheB7RateRule() {
        final FirmwareProvider p = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_rp_ifa2.elf"),
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        final DirectCcProcessor d = new DirectCcProcessor(p.processorInstances(p.defaults()).get(), 0,
            (qpn, r, ps, cycles) -> got.add(new Got(r.rate(), r.rttProbeRequest())));
        d.startFlow(7, 0, 100_000_000_000L, 1024, 13_000, 0);
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 1, 1_000), 1_000_000L);
        assertEquals(1 << 20, got.get(got.size() - 1).rate()); // new flow: p3 = 2^20 and a probe
        assertTrue(got.get(got.size() - 1).probe());
        // P1's response bytes: q = 512 (byte-reversed 2), B = 1,078,676,480, T = 1,078,071,040 as read; q x 256 > 13,000:
        // rate = 2^20 x (65,536 - 6,553) >> 16 = 943,728, next probe at once
        rtt(d, 0x0002_0001, 0x004C_4B40, 0x000F_4240, 5_000);
        assertEquals(943_728, got.get(got.size() - 1).rate());
        assertTrue(got.get(got.size() - 1).probe());
        // P2's bytes: q = 1 (256 <= 13,000), dB >> 8 = 11,569, dT = 1,078,071,040: r = 0, norm 0 < 0.8: + p6 (0)
        rtt(d, 0x0100_0005, 0x017D_7840, 0x001E_8480, 7_000);
        assertEquals(943_728, got.get(got.size() - 1).rate());
        // B.8's crafted answer instead: dB = 25,600, dT = 1,000 -> r = 1,677,568, norm capped to 65,536: + p1 (40)
        final FirmwareProvider p2 = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_rp_ifa2.elf"),
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        final DirectCcProcessor d2 = new DirectCcProcessor(p2.processorInstances(p2.defaults()).get(), 0,
            (qpn, r, ps, cycles) -> got.add(new Got(r.rate(), r.rttProbeRequest())));
        d2.startFlow(7, 0, 100_000_000_000L, 1024, 13_000, 0);
        d2.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 1, 1_000), 1_000_000L);
        rtt(d2, 0x0002_0001, 0x004C_4B40, 0x000F_4240, 5_000);
        rtt(d2, 0x0000_0000, 0x00B0_4B40, 0xE812_4240, 7_000);
        assertEquals(943_768, got.get(got.size() - 1).rate());
        final Map<String, Long> c = new LinkedHashMap<>();
        d2.forEachCounter(c::put);
        assertEquals(2L, c.get("rtt_events"));
        assertEquals(512L, c.get("first_rtt_q"));
        assertEquals(1_078_676_480L, c.get("first_rtt_b"));
        assertEquals(1_078_071_040L, c.get("first_rtt_t"));
    }

    @Test
    void theRpSeesRttReqSentInTheTxFlagByte() {
        // B.7 TX branch: a TX event with RTT_REQ_SENT (DOCA flag 4, mailbox byte 3) while sent == 0 sets sent = 1,
        // counter = 0 and asks nothing; later TX events within ABORT_TIME (300,000 ns) ask nothing either.
        // Without the flag, counter counts 1 -> 2 -> 3 and the 2nd TX event after the new flow asks for a probe.
        final FirmwareProvider p = FirmwareProvider.load(FirmwareDifferentialTest.elf("test/doca_rp_ifa2.elf"),
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        final DirectCcProcessor d = new DirectCcProcessor(p.processorInstances(p.defaults()).get(), 0,
            (qpn, r, ps, cycles) -> got.add(new Got(r.rate(), r.rttProbeRequest())));
        d.startFlow(7, 0, 100_000_000_000L, 1024, 13_000, 0);
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 1, 1_000), 1_000_000L); // new flow: probe
        assertTrue(got.get(got.size() - 1).probe());
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 7, 2, 2_000).flags(PccEventLayout.FLAG_RTT_REQ_SENT), 2_000_000L);
        assertFalse(got.get(got.size() - 1).probe());
        for (int k = 3; k <= 5; k++) {
            d.offer(ev.reset(PccEventType.TX_BURST, 0, 7, k, k * 1_000), k * 1_000_000L);
            assertFalse(got.get(got.size() - 1).probe(), "TX event " + k);
        }
        // a second flow never told its probe left: the 2nd TX event after the new flow asks again (counter 3 > 2)
        d.startFlow(8, 10_000_000L, 100_000_000_000L, 1024, 13_000, 0);
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 8, 1, 11_000), 11_000_000L);
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 8, 2, 12_000), 12_000_000L);
        assertFalse(got.get(got.size() - 1).probe());
        d.offer(ev.reset(PccEventType.TX_BURST, 0, 8, 3, 13_000), 13_000_000L);
        assertTrue(got.get(got.size() - 1).probe());
    }
}
