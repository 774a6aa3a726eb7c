package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The speed rewrites of the handlers give the same results as the code they replaced: each
 * rewritten algorithm and its pre-rewrite copy ({@code *Reference}, main 5e2005c verbatim) are
 * driven side by side through the same pseudo-random event streams, and after every event the
 * twelve context words, every result field and at the end every counter must be equal.
 *
 * <p>The streams mix all six event types with gaps from 0 ns to about 1 ms (so several deadlines
 * fall due at once and alpha catches up over many periods), TX bursts of up to 70 kB (several
 * byte-counter events per burst), ACKs and NAKs with random PSN ranges and ECN echoes, RTT
 * responses with random timestamps, and timestamps that wrap at 2^32; each algorithm runs under
 * its defaults and under parameter sets that switch its options, for 200,000 events each.
 */
class HandlerEquivalenceTest {
    private static final int EVENTS = 200_000;
    /** The flow's MTU and line rate in {@link #check}; a test may change them for its later checks. */
    private int mtuBytes = 1000;
    private long lineRateBitsPerSec = 100_000_000_000L;

    @Test
    void dcqcnMatchesItsReference() {
        final PccAlgorithmProvider p = new DcqcnProvider();
        check(p, DcqcnReference::new, 1);
        check(p, DcqcnReference::new, 2, "hai_scaling", 1, "clamp_tgt_rate", 1);
        check(p, DcqcnReference::new, 3, "clamp_tgt_rate_after_time_inc", 0, "rpg_byte_reset_bytes", 0);
        check(p, DcqcnReference::new, 4, "alpha_update_period_ns", 7, "rate_reduce_monitor_period_ns", 13,
            "rpg_time_reset_ns", 2_000, "rpg_threshold", 0, "rpg_byte_reset_bytes", 1_000, "g", 0.5);
        check(p, DcqcnReference::new, 5, "alpha_update_period_ns", 55_000, "rate_reduce_monitor_period_ns", 50_000,
            "rpg_time_reset_ns", 5_000, "rpg_threshold", 5, "rate_on_first_cnp", 0.25, "rpg_min_dec_fac", 0,
            "rpg_gd", 0, "g", Math.scalb(1.0, -16));
        lineRateBitsPerSec = 25_000_000_000L; // the rate quotient's multiplier follows the line rate
        check(p, DcqcnReference::new, 6);
        lineRateBitsPerSec = 399_999_999_997L;
        check(p, DcqcnReference::new, 7, "rpg_time_reset_ns", 700, "rpg_ai_rate_mbps", 1_000);
        // periods below 5 ns have no division multiplier: their divides take the reciprocal path
        check(p, DcqcnReference::new, 8, "alpha_update_period_ns", 3, "rate_reduce_monitor_period_ns", 1);
    }

    @Test
    void ldcpPccMatchesItsReference() {
        final PccAlgorithmProvider p = new LdcpPccProvider();
        check(p, LdcpPccReference::new, 11);
        check(p, LdcpPccReference::new, 12, "rtt_gain", 0.125, "alpha", 16, "probe_timeout_ns", 0);
        check(p, LdcpPccReference::new, 13, "min_window", 1024, "beta", 16, "init_window_bytes", 1 << 30);
        mtuBytes = 4096;
        lineRateBitsPerSec = 400_000_000_000L;
        check(p, LdcpPccReference::new, 14, "min_window", 1.0 / 1024, "alpha", Math.scalb(1.0, -16));
    }

    @Test
    void dcqcnAlphaPowerFromTheSquaresTableIsTheLoops() {
        for (final double g : new double[] {5.0 / 1024, 0.5, Math.scalb(1.0, -16), 1.0 / 3}) {
            final PccParameterValues values = new DcqcnProvider().defaults().set("g", g);
            final DcqcnAlgorithm a = (DcqcnAlgorithm) new DcqcnProvider().create(values);
            final long base = (0x10000L - values.raw("g")) << 16;
            for (long m = 0; m < 5_000; m++) {
                assertEquals(DcqcnReference.powFraction32(base, m), a.powOneMinusG32(m), "g " + g + " m " + m);
            }
            for (long m = 5_000; m < Integer.MAX_VALUE; m = m * 3 + 7) {
                assertEquals(DcqcnReference.powFraction32(base, m), a.powOneMinusG32(m), "g " + g + " m " + m);
            }
        }
    }

    /**
     * Runs {@link #EVENTS} events through the algorithm and its reference with the same parameters.
     *
     * @param provider   the algorithm's provider
     * @param reference  makes the reference from the parameter values
     * @param seed       stream seed
     * @param parameters name/value pairs set over the defaults
     */
    private void check(final PccAlgorithmProvider provider,
                              final Function<PccParameterValues, PccAlgorithm> reference, final long seed,
                              final Object... parameters) {
        final PccParameterValues values = provider.defaults();
        for (int i = 0; i < parameters.length; i += 2) {
            values.set((String) parameters[i], ((Number) parameters[i + 1]).doubleValue());
        }
        final PccAlgorithm fast = provider.create(values);
        final PccAlgorithm ref = reference.apply(values);
        final PccContext c1 = context();
        final PccContext c2 = context();
        final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        final PccAttributes attributes = new PccAttributes().set(lineRateBitsPerSec, 0, false, mtuBytes, 10_000);
        final PccResult r1 = new PccResult();
        final PccResult r2 = new PccResult();
        long lcg = seed * 0x9E3779B97F4A7C15L + 1;
        int now = (int) (seed * 0x6F4A_1234L); // starts anywhere: timestamps wrap
        attributes.initialPsn((int) (seed * 77_777) & PccEventLayout.MASK_24);
        fast.initFlow(c1, now, attributes, r1.reset());
        ref.initFlow(c2, now, attributes, r2.reset());
        attributes.initialPsn(0);
        same(c1, c2, r1, r2, provider.name() + " seed " + seed + " initFlow");
        int psn = (int) (seed * 77_777) & PccEventLayout.MASK_24;
        final int[] kinds = new int[PccEventType.COUNT];
        for (int n = 0; n < EVENTS; n++) {
            lcg = lcg * 6364136223846793005L + 1442695040888963407L;
            final int gapPick = (int) ((lcg >>> 33) & 63);
            now += gapPick == 0 ? 0 : gapPick < 56 ? (int) ((lcg >>> 40) % 2_000)
                : gapPick < 62 ? 10_000 + (int) ((lcg >>> 30) % 300_000) : (int) ((lcg >>> 28) % 1_000_000);
            final int type = (int) (((lcg >>> 20) & 0xFFFF) % PccEventType.COUNT);
            kinds[type]++;
            final long bits = lcg * 0xD1342543DE82EF95L;
            switch (type) {
                case PccEventType.TX_BURST -> {
                    psn = (psn + 1 + (int) (bits & 15)) & PccEventLayout.MASK_24;
                    e.reset(type, 0, 1, psn, now).tx((int) ((bits >>> 8) % 70_000), 1 + (int) (bits & 15));
                }
                case PccEventType.ACK -> {
                    final int sn = (psn - (int) ((bits >>> 4) & 7)) & PccEventLayout.MASK_24;
                    final int first = (sn - (int) ((bits >>> 8) & 7) + 1) & PccEventLayout.MASK_24;
                    e.reset(type, 0, 1, sn, now).flags((bits >>> 12 & 3) == 0 ? PccEventLayout.FLAG_ECE : 0)
                        .rtt((bits >>> 14 & 7) == 0 ? 0 : now - (int) ((bits >>> 20) % 40_000), 0, 0);
                    e.buffer().putInt(e.offset() + PccEventLayout.FIRST_SN_OFFSET, first, ByteOrder.LITTLE_ENDIAN);
                }
                case PccEventType.NACK -> {
                    final int sn = (psn - (int) ((bits >>> 4) & 7)) & PccEventLayout.MASK_24;
                    final int first = (sn - (int) ((bits >>> 8) & 7)) & PccEventLayout.MASK_24;
                    e.reset(type, (bits >>> 12 & 1) == 0 ? PccEventType.NACK_OUT_OF_SEQUENCE : PccEventType.NACK_RNR,
                        1, sn, now).flags((bits >>> 13 & 3) == 0 ? PccEventLayout.FLAG_ECE : 0);
                    e.buffer().putInt(e.offset() + PccEventLayout.FIRST_SN_OFFSET, first, ByteOrder.LITTLE_ENDIAN);
                }
                case PccEventType.RTT_RESPONSE -> {
                    final int send = now - (int) ((bits >>> 4) % 60_000);
                    final int receive = send + (int) ((bits >>> 24) % 20_000);
                    e.reset(type, 0, 1, psn, now).rtt(send, receive, receive + (int) ((bits >>> 40) % 3_000));
                }
                default -> e.reset(type, 0, 1, psn, now);
            }
            fast.onEvent(c1, e, attributes, r1.reset());
            ref.onEvent(c2, e, attributes, r2.reset());
            same(c1, c2, r1, r2, provider.name() + " seed " + seed + " event " + n + " " + e);
        }
        for (int id = 0; id < ref.counters().size(); id++) {
            assertEquals(ref.counters().get(id), fast.counters().get(id), ref.counters().name(id));
        }
        for (final int k : kinds) {
            assertTrue(k > EVENTS / 10, "every event type is in the stream");
        }
    }

    private static PccContext context() {
        final PccContext c = new PccContext().wrap(new UnsafeBuffer(new byte[PccContext.DEFAULT_WORDS * 4]), 0,
            PccContext.DEFAULT_WORDS);
        c.clear();
        return c;
    }

    private static void same(final PccContext c1, final PccContext c2, final PccResult r1, final PccResult r2,
                             final String where) {
        for (int w = 0; w < PccContext.DEFAULT_WORDS; w++) {
            if (c1.get(w) != c2.get(w)) {
                fail(where + ": context word " + w + " is " + c1.get(w) + ", reference " + c2.get(w));
            }
        }
        if (r1.rate() != r2.rate() || r1.windowBytes() != r2.windowBytes() || r1.timerNs() != r2.timerNs()
            || r1.rttProbeRequest() != r2.rttProbeRequest() || r1.fastStartPackets() != r2.fastStartPackets()) {
            fail(where + ": result " + r1 + ", reference " + r2);
        }
    }
}
