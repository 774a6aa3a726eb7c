package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22, on programs written from Addendum A of the DOCA PCC fact sheet (committed ELFs of
 * {@code firmware/testfw/doca_*.c}, which use DOCA names only): the port-state callback once after
 * init with the port speed, NIC TX-byte counters read from the connected NIC at the moment the handler
 * runs (32-bit, wrapping), {@code doca_pcc_dev_get_timer_lo} in microseconds, the host mailbox with
 * reply and return value, and the optional handlers an ELF defines.
 */
class DocaServicesTest {
    private final UnsafeBuffer buf = new UnsafeBuffer(new byte[64]);
    private final PccEvent ev = new PccEvent().wrap(buf, 0);
    private final PccContext context = new PccContext().wrap(new UnsafeBuffer(new byte[48]), 0, 12);
    private final PccAttributes attributes = new PccAttributes().set(100_000_000_000L, 0, false, 1000, 8000);
    private final PccResult result = new PccResult();

    private static Path elf(final String name) {
        return FirmwareDifferentialTest.elf("test/" + name);
    }

    private int run(final FirmwareAlgorithm a, final int type, final int nowNs) {
        result.reset();
        a.onEvent(context, ev.reset(type, 0, 7, 1, nowNs), attributes, result);
        return result.rate();
    }

    @Test
    void rpSamplesTheNicsTxBytesAndReactsToThem() {
        final FirmwareProvider fw = FirmwareProvider.load(elf("doca_rp_tx_sampler.elf"), 100_000);
        final long[] tx = {0xFFFF_8000L};
        final NicPorts nic = new NicPorts() {
            @Override
            public long speedBitsPerSec(final int port) {
                return 100_000_000_000L;
            }

            @Override
            public long txBytes(final int port) {
                return tx[0];
            }

            @Override
            public long rxBytes(final int port) {
                return 0;
            }
        };
        final FirmwareAlgorithm a = (FirmwareAlgorithm) fw.processorInstances(fw.defaults(), nic).get();
        context.clear();
        result.reset();
        a.initFlow(context, 0, attributes, result);
        // doca_pcc_dev_user_port_info_changed ran once, for port 0, before the first call:
        // speed 100 Gb/s -> 100 x 1000 >> 3 = 12,500 MB/s
        assertEquals(1, a.symbolLoad("port_info_calls", 0, 4));
        assertEquals(12_500, a.symbolLoad("port_speed_MBps", 0, 4));
        // t = 10 us (timer_lo in us: 10,000 ns / 1000): first sample, 0xFFFF8000 bytes; no rate yet
        assertEquals(PccResult.RATE_UNCHANGED, run(a, PccEventType.TX_BURST, 10_000));
        assertEquals(10, a.symbolLoad("last_sample_us", 0, 4));
        assertEquals(0xFFFF_8000L, a.symbolLoad("last_tx_bytes", 0, 4));
        // the port sends 62,500 B by t = 20 us, wrapping the 32-bit counter: 0xFFFF8000 + 62,500 = 2^32 + 29,732
        tx[0] = 0xFFFF_8000L + 62_500;
        // t = 15 us: 5 us since the last sample < 10 us: no sample, still one sample taken
        assertEquals(PccResult.RATE_UNCHANGED, run(a, PccEventType.ACK, 15_000));
        // t = 20 us: (29,732 - 0xFFFF8000) mod 2^32 = 62,500 B in 10 us = 6,250 MB/s;
        // rate = (12,500 - 6,250) x 2^20 / 12,500 = 524,288
        assertEquals(524_288, run(a, PccEventType.ACK, 20_000));
        assertEquals(6_250, a.symbolLoad("tx_MBps", 0, 4));
        // 125,000 B more by t = 30 us: 12,500 MB/s, the port is full: rate = 0 -> 1
        tx[0] += 125_000;
        assertEquals(1, run(a, PccEventType.CNP, 30_000));
        assertEquals(0, fw.faults(), fw.firstFault());
    }

    @Test
    void rpReadsABudgetTheHostSetThroughTheMailbox() {
        final FirmwareProvider fw = FirmwareProvider.load(elf("doca_rp_mailbox_budget.elf"), 100_000);
        assertTrue(fw.image().hasMailboxHandler());
        assertFalse(fw.image().hasPortInfoHandler());
        final FirmwareAlgorithm a = (FirmwareAlgorithm) fw.create(fw.defaults());
        context.clear();
        a.initFlow(context, 0, attributes, result);
        assertEquals(PccResult.RATE_UNCHANGED, run(a, PccEventType.ACK, 1000)); // no budget yet
        // budget 0x40000 = 262,144 (a quarter of line rate), little-endian; reply: the previous budget, 0
        final FirmwareAlgorithm.HostMailboxReply r1 = a.hostMailbox(new byte[] {0, 0, 4, 0}, 16, 2000, 0);
        assertTrue(r1.completed());
        assertEquals(0, r1.returnValue());
        assertArrayEquals(new byte[] {0, 0, 0, 0}, r1.response());
        assertEquals(262_144, run(a, PccEventType.ACK, 3000));
        // a second budget, 0x80000 = 524,288: the reply is the previous one, 262,144 = 00 00 04 00 little-endian
        final FirmwareAlgorithm.HostMailboxReply r2 = a.hostMailbox(new byte[] {0, 0, 8, 0}, 16, 4000, 0);
        assertArrayEquals(new byte[] {0, 0, 4, 0}, r2.response());
        assertEquals(524_288, run(a, PccEventType.TX_BURST, 5000));
        // a 3-byte message is refused: FAIL (1), no reply (response size preset to 0), budget kept
        final FirmwareAlgorithm.HostMailboxReply r3 = a.hostMailbox(new byte[] {1, 2, 3}, 16, 6000, 0);
        assertEquals(1, r3.returnValue());
        assertEquals(0, r3.response().length);
        assertEquals(524_288, run(a, PccEventType.CNP, 7000));
        // a host that accepts only 2 reply bytes: the program checks max_response_size and sends none
        final FirmwareAlgorithm.HostMailboxReply r4 = a.hostMailbox(new byte[] {0, 0, 2, 0}, 2, 8000, 0);
        assertEquals(0, r4.returnValue());
        assertEquals(0, r4.response().length);
        assertEquals(131_072, run(a, PccEventType.ACK, 9000));
    }

    /**
     * The rates of 16 ACKs begun on the 16 threads of core 0 (bf3-dpa interleaves them) and run to their
     * ends, optionally with a host mailbox message in between while every thread, the service thread 15
     * included, is mid-handler. The budget program answers a 3-byte message with FAIL and changes nothing,
     * so the events' results must not change; without saving and restoring thread 15's slot the host call
     * would overwrite that thread's mailbox and stack under its running handler.
     */
    private static long[] sixteenEventsAround(final boolean messageInBetween, final FirmwareProvider fw) {
        final FirmwareAlgorithm a = (FirmwareAlgorithm) fw.create(fw.defaults());
        assertTrue(a.interleaves());
        final PccAttributes at = new PccAttributes().set(100_000_000_000L, 0, false, 1000, 8000);
        final PccContext[] ctx = new PccContext[16];
        final PccEvent[] evs = new PccEvent[16];
        final PccResult r = new PccResult();
        for (int t = 0; t < 16; t++) {
            ctx[t] = new PccContext().wrap(new UnsafeBuffer(new byte[48]), 0, 12);
            evs[t] = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0).reset(PccEventType.ACK, 0, 1 + t, t, 1000);
            r.reset();
            a.prepare(t, 0);
            a.initFlow(ctx[t], 0, at, r);
        }
        // the budget: 0x30000 = 196,608, so every event sets that rate
        assertEquals(0, a.hostMailbox(new byte[] {0, 0, 3, 0}, 16, 500, 0).returnValue());
        for (int t = 0; t < 16; t++) {
            assertTrue(a.begin(t, 0, ctx[t], evs[t], at));
        }
        assertEquals(-1, a.runUntil(60), "every handler is still running at cycle 60");
        if (messageInBetween) {
            final FirmwareAlgorithm.HostMailboxReply reply = a.hostMailbox(new byte[] {1, 2, 3}, 16, 1500, 0);
            assertEquals(1, reply.returnValue());
            assertEquals(FirmwareAlgorithm.SERVICE_THREAD, reply.threadRank());
        }
        final long[] rates = new long[16];
        int done = 0;
        while (done < 16) {
            final int t = a.runUntil(Long.MAX_VALUE);
            assertTrue(t >= 0);
            r.reset();
            a.finish(t, ctx[t], r);
            rates[t] = r.rate();
            done++;
        }
        return rates;
    }

    @Test
    void aHostCallWhileTheServiceThreadRunsAnEventLeavesThatEventAlone() {
        final FirmwareProvider fw = FirmwareProvider.load(elf("doca_rp_mailbox_budget.elf"), 100_000);
        final long[] without = sixteenEventsAround(false, fw);
        final long[] with = sixteenEventsAround(true, fw);
        for (int t = 0; t < 16; t++) {
            assertEquals(196_608, without[t], "thread " + t);
        }
        assertArrayEquals(without, with);
        assertEquals(0, fw.faults(), fw.firstFault());
        assertEquals(0, fw.budgetExceeded(), fw.firstFault());
    }

    /**
     * Two rounds of 16 DCQCN CNPs, one flow per thread of core 0 (bf3-dpa interleaves them), each round
     * begun on all 16 threads and run to its end: the first CNP starts each flow's rate limiter (rate
     * 1.0, alpha 1023/1024 in the context), the second, 10 us later, cuts the rate by that context.
     * Optionally a new flow starts while every thread is mid-way through its second CNP: the flow start
     * runs on the thread the last {@code begin} named (15), whose mailbox, stack and context line hold a
     * running event, and must leave that event alone. With {@code busyThreads} below 16 only threads
     * 0 .. busyThreads - 1 get events, and the flow start must run on thread busyThreads (the lowest free
     * one). Returns the second round's 16 rates, then the 16 contexts (12 words each), then the flow
     * start's rate (0 without one), then the thread it ran on (-1 without one); idle threads' slots stay 0.
     */
    private static long[] secondCnpsAround(final boolean flowStartInBetween, final FirmwareProvider fw) {
        return secondCnpsAround(flowStartInBetween, fw, 16);
    }

    private static long[] secondCnpsAround(final boolean flowStartInBetween, final FirmwareProvider fw, final int busyThreads) {
        final FirmwareAlgorithm a = (FirmwareAlgorithm) fw.create(fw.defaults());
        assertTrue(a.interleaves());
        final PccAttributes at = new PccAttributes().set(100_000_000_000L, 0, false, 1000, 8000);
        final PccContext[] ctx = new PccContext[16];
        final PccResult r = new PccResult();
        for (int t = 0; t < 16; t++) {
            ctx[t] = new PccContext().wrap(new UnsafeBuffer(new byte[48]), 0, 12);
            r.reset();
            a.prepare(t, 0);
            a.initFlow(ctx[t], 0, at, r);
            assertEquals(1 << 20, r.rate(), "nicsim_pcc_user_flow_init starts every flow at line rate");
        }
        final long[] out = new long[16 + 16 * 12 + 2];
        out[out.length - 1] = -1;
        for (int round = 0; round < 2; round++) {
            for (int t = 0; t < busyThreads; t++) {
                final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0)
                    .reset(PccEventType.CNP, 0, 1 + t, t, 1000 + 10_000 * round);
                assertTrue(a.begin(t, 0, ctx[t], ev, at));
            }
            assertEquals(-1, a.runUntil(a.coreCycles() + 60), "every handler is still running 60 cycles in");
            if (flowStartInBetween && round == 1) {
                final PccContext fresh = new PccContext().wrap(new UnsafeBuffer(new byte[48]), 0, 12);
                r.reset();
                a.initFlow(fresh, 11_500, at, r);
                out[out.length - 2] = r.rate();
                out[out.length - 1] = a.lastFlowStartThread();
            }
            for (int done = 0; done < busyThreads; done++) {
                final int t = a.runUntil(Long.MAX_VALUE);
                assertTrue(t >= 0);
                r.reset();
                a.finish(t, ctx[t], r);
                out[t] = r.rate();
                for (int w = 0; w < 12; w++) {
                    out[16 + 12 * t + w] = ctx[t].get(w);
                }
            }
        }
        return out;
    }

    @Test
    void aFlowStartWhileItsThreadRunsAnEventLeavesThatEventAlone() {
        final FirmwareProvider fw = FirmwareProvider.load(FirmwareDifferentialTest.elf("dcqcn.elf"), 100_000);
        final long[] without = secondCnpsAround(false, fw);
        final long[] with = secondCnpsAround(true, fw);
        for (int t = 0; t < 16; t++) {
            // the second CNP cuts the rate by about alpha / 2 (at most to half: rpg_min_dec_fac 50 %)
            assertTrue(without[t] >= 1 << 19 && without[t] < 1 << 20, "thread " + t + ": " + without[t]);
        }
        assertEquals(1 << 20, with[with.length - 2], "the flow started in between still gets its initial rate");
        assertEquals(15, with[with.length - 1], "no free thread: the flow start runs on the last one begun");
        with[with.length - 2] = 0;
        with[with.length - 1] = -1;
        assertArrayEquals(without, with, "events in flight keep their results and contexts");
        assertEquals(0, fw.faults(), fw.firstFault());
        assertEquals(0, fw.budgetExceeded(), fw.firstFault());
    }

    /**
     * Events in flight on threads 0..3 of core 0 only, the last begun on thread 3: the flow start runs on
     * thread 4, the lowest free one, not on thread 3 (a DPA thread runs one handler at a time), and the
     * four events end with the results and contexts they have without the flow start.
     */
    @Test
    void aFlowStartWhileItsThreadRunsAnEventTakesAFreeThread() {
        final FirmwareProvider fw = FirmwareProvider.load(FirmwareDifferentialTest.elf("dcqcn.elf"), 100_000);
        final long[] without = secondCnpsAround(false, fw, 4);
        final long[] with = secondCnpsAround(true, fw, 4);
        assertEquals(4, with[with.length - 1], "the flow start runs on the lowest free thread");
        assertEquals(1 << 20, with[with.length - 2], "the flow started in between gets its initial rate");
        for (int t = 0; t < 4; t++) {
            assertTrue(without[t] >= 1 << 19 && without[t] < 1 << 20, "thread " + t + ": " + without[t]);
        }
        with[with.length - 2] = 0;
        with[with.length - 1] = -1;
        assertArrayEquals(without, with, "events in flight keep their results and contexts");
        assertEquals(0, fw.faults(), fw.firstFault());
    }

    @Test
    void imagesTellWhichOptionalHandlersTheyDefine() {
        final FirmwareImage np = FirmwareImage.load(elf("doca_np_rx_bytes.elf"));
        assertTrue(np.hasNpHandler());
        assertFalse(np.hasUserAlgo());
        assertFalse(np.hasMailboxHandler());
        final FirmwareException x = assertThrows(FirmwareException.class,
            () -> FirmwareProvider.load(elf("doca_np_rx_bytes.elf"), 1000));
        assertTrue(x.getMessage().endsWith("doca_np_rx_bytes.elf: no doca_pcc_dev_user_algo: a notification-point program"
            + " (doca_pcc_dev_np_user_packet_handler), not a reaction-point algorithm"), x.getMessage());
        final FirmwareImage tx = FirmwareImage.load(elf("doca_rp_tx_sampler.elf"));
        assertTrue(tx.hasPortInfoHandler());
        assertFalse(tx.hasNpHandler());
        final FirmwareImage dcqcn = FirmwareImage.load(FirmwareDifferentialTest.elf("dcqcn.elf"));
        assertFalse(dcqcn.hasPortInfoHandler() || dcqcn.hasMailboxHandler() || dcqcn.hasNpHandler());
    }
}
