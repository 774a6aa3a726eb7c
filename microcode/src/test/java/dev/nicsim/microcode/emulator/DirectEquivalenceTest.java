package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With every stage costing zero cycles ({@link EmulatorConfig#zeroCost()}) each event completes at
 * its arrival, so the emulator gives exactly the results of the ideal {@link DirectCcProcessor}:
 * same QPNs, fields, effective times (the arrival) and order, for each built-in algorithm.
 */
class DirectEquivalenceTest {
    private static final int FLOWS = 6;

    private static Stepper drive(final CcProcessor p, final Stepper s) {
        s.processor = p;
        for (int f = 0; f < FLOWS; f++) {
            p.startFlow(100 + f, 0, 100_000_000_000L, 1000, 10_000);
        }
        final int[] psn = new int[FLOWS];
        long lcg = 2024;
        long t = 0;
        for (int i = 0; i < 5_000; i++) {
            lcg = lcg * 6364136223846793005L + 1442695040888963407L;
            t += 50_000 + ((lcg >>> 40) & 0xFFFFF);
            final int f = (int) ((lcg >>> 33) % FLOWS);
            final int ts = (int) (t / 1000);
            final int qpn = 100 + f;
            switch ((int) ((lcg >>> 20) % 8)) {
                case 0, 1 -> {
                    psn[f] += 4;
                    s.event.reset(PccEventType.TX_BURST, 0, qpn, psn[f] - 1, ts).tx(4000, 4);
                }
                case 2, 3 -> {
                    s.event.reset(PccEventType.ACK, 0, qpn, psn[f], ts)
                        .flags(((lcg >>> 50) & 3) == 0 ? PccEventLayout.FLAG_ECE : 0).rtt(ts - 12_000, 0, 0);
                    s.firstSn(Math.max(0, psn[f] - 3));
                }
                case 4 -> s.event.reset(PccEventType.CNP, 0, qpn, psn[f], ts);
                case 5 -> s.event.reset(PccEventType.RTT_RESPONSE, 0, qpn, psn[f], ts).rtt(ts - 11_000, ts - 6_000, ts - 5_900);
                case 6 -> s.event.reset(PccEventType.TIMER, 0, qpn, psn[f], ts);
                default -> s.event.reset(PccEventType.NACK,
                    ((lcg >>> 52) & 1) == 0 ? PccEventType.NACK_OUT_OF_SEQUENCE : PccEventType.NACK_RNR, qpn, psn[f], ts);
            }
            s.offer(t);
        }
        s.finish();
        return s;
    }

    private static Map<String, Long> counters(final CcProcessor p) {
        final Map<String, Long> m = new LinkedHashMap<>();
        p.forEachCounter(m::put);
        return m;
    }

    @Test
    void zeroCostEmulatorMatchesTheDirectProcessorForEveryBuiltInAlgorithm() {
        for (final String name : new String[] {"ldcp", "ldcp-pcc", "dctcp", "dcqcn"}) {
            final PccAlgorithmProvider p = PccAlgorithms.byName(name);
            final Stepper d = new Stepper();
            final DirectCcProcessor direct = new DirectCcProcessor(p.create(p.defaults()), 0, d);
            drive(direct, d);
            final Stepper e = new Stepper();
            final UnicEmulator emu = new UnicEmulator(EmulatorConfig.zeroCost().cores(4).threadsPerCore(2), 
                () -> p.create(p.defaults()), 0, e);
            drive(emu, e);

            assertEquals(FLOWS + 5_000, e.results.size(), name); // one per start and one per event
            assertEquals(d.results, e.results, name);
            final Map<String, Long> dc = counters(direct);
            final Map<String, Long> ec = counters(emu);
            for (final Map.Entry<String, Long> c : dc.entrySet()) {
                assertEquals(c.getValue(), ec.get(c.getKey()), name + " " + c.getKey());
            }
            assertEquals(0L, ec.get("busy_cycles"));
            long coalesced = 0;
            for (int t = 0; t < PccEventType.COUNT; t++) {
                coalesced += emu.coalesced(t) + emu.dropped(t);
            }
            assertEquals(0, coalesced, name + ": nothing waits, so nothing merges or drops");
            assertTrue(e.results.size() > 5_000, name);
        }
    }
}
