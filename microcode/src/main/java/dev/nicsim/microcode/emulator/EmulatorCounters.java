package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEventType;
import org.HdrHistogram.Histogram;

import java.util.function.ObjLongConsumer;

/**
 * The counters of an emulator's cores, summed and named as {@link UnicEmulator#forEachCounter}
 * documents them. The names are made once, so a visit allocates nothing.
 *
 * <p>Thread-safety: call only while no thread runs the cores (stepped, or free-running stopped).
 */
final class EmulatorCounters {
    private final EmulatorCore[] cores;
    private final String[][] typeNames = new String[PccEventType.COUNT][3];
    private final String[][] coreNames;

    /** @param cores the emulator's cores */
    EmulatorCounters(final EmulatorCore[] cores) {
        this.cores = cores;
        coreNames = new String[cores.length][6];
        for (int i = 0; i < cores.length; i++) {
            final String p = "core" + i + "_";
            coreNames[i][0] = p + "events_handled";
            coreNames[i][1] = p + "events_coalesced";
            coreNames[i][2] = p + "events_dropped";
            coreNames[i][3] = p + "busy_cycles";
            coreNames[i][4] = p + "utilisation_ppm";
            coreNames[i][5] = p + "ring_high_water_events";
        }
        for (int t = 0; t < PccEventType.COUNT; t++) {
            final String s = PccEventType.shortName(t);
            typeNames[t][0] = s + "_events_handled";
            typeNames[t][1] = s + "_events_coalesced";
            typeNames[t][2] = s + "_events_dropped";
        }
    }

    /** @param eventType event type @return events of that type handled, all cores */
    long handled(final int eventType) {
        long s = 0;
        for (final EmulatorCore c : cores) {
            s += c.handled[eventType];
        }
        return s;
    }

    /** @param eventType event type @return events of that type merged into a waiting one, all cores */
    long coalesced(final int eventType) {
        long s = 0;
        for (final EmulatorCore c : cores) {
            s += c.coalesced[eventType];
        }
        return s;
    }

    /** @param eventType event type @return events of that type dropped at a full queue, all cores */
    long dropped(final int eventType) {
        long s = 0;
        for (final EmulatorCore c : cores) {
            s += c.dropped[eventType];
        }
        return s;
    }

    /** @param core core index @return events that core handled, all types */
    long coreHandled(final int core) {
        long s = 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            s += cores[core].handled[t];
        }
        return s;
    }

    /**
     * Visits every counter, in the documented order.
     *
     * @param latency the emulator's latencies
     * @param elapsed latest simulated time seen, cycles
     * @param visitor receives each name and value
     */
    void forEach(final LatencyLog latency, final long elapsed, final ObjLongConsumer<String> visitor) {
        long accepted = 0;
        long unknown = 0;
        long hits = 0;
        long misses = 0;
        long busy = 0;
        long highWater = 0;
        for (final EmulatorCore c : cores) {
            accepted += c.accepted();
            unknown += c.unknownFlow;
            hits += c.contextCache.hits;
            misses += c.contextCache.misses;
            busy += c.busyCycles;
            highWater = Math.max(highWater, c.ringHighWater);
        }
        for (int t = 0; t < PccEventType.COUNT; t++) {
            visitor.accept(typeNames[t][0], handled(t));
            visitor.accept(typeNames[t][1], coalesced(t));
            visitor.accept(typeNames[t][2], dropped(t));
        }
        visitor.accept("events_accepted", accepted);
        visitor.accept("events_for_unknown_flow", unknown);
        visitor.accept("context_cache_hits", hits);
        visitor.accept("context_cache_misses", misses);
        visitor.accept("busy_cycles", busy);
        visitor.accept("elapsed_cycles", elapsed);
        visitor.accept("utilisation_ppm", ppm(busy, elapsed * cores.length));
        visitor.accept("ring_high_water_events", highWater);
        final Histogram latencyNs = latency.ns();
        final Histogram latencyCycles = latency.cycles();
        visitor.accept("latency_samples", latencyNs.getTotalCount());
        visitor.accept("latency_p50_ns", latencyNs.getValueAtPercentile(50));
        visitor.accept("latency_p99_ns", latencyNs.getValueAtPercentile(99));
        visitor.accept("latency_max_ns", latencyNs.getMaxValue());
        visitor.accept("latency_p50_cycles", latencyCycles.getValueAtPercentile(50));
        visitor.accept("latency_p99_cycles", latencyCycles.getValueAtPercentile(99));
        visitor.accept("latency_max_cycles", latencyCycles.getMaxValue());
        for (int i = 0; i < cores.length; i++) {
            final EmulatorCore c = cores[i];
            long coalescedAll = 0;
            long droppedAll = 0;
            for (int t = 0; t < PccEventType.COUNT; t++) {
                coalescedAll += c.coalesced[t];
                droppedAll += c.dropped[t];
            }
            visitor.accept(coreNames[i][0], coreHandled(i));
            visitor.accept(coreNames[i][1], coalescedAll);
            visitor.accept(coreNames[i][2], droppedAll);
            visitor.accept(coreNames[i][3], c.busyCycles);
            visitor.accept(coreNames[i][4], ppm(c.busyCycles, elapsed));
            visitor.accept(coreNames[i][5], c.ringHighWater);
        }
        final PccCounters first = cores[0].algorithm.counters();
        for (int k = 0; k < first.size(); k++) {
            long s = 0;
            for (final EmulatorCore c : cores) {
                final PccCounters counters = c.algorithm.counters();
                if (k < counters.size()) {
                    s += counters.get(k);
                }
            }
            visitor.accept(first.name(k), s);
        }
    }

    private static long ppm(final long part, final long whole) {
        return whole <= 0 ? 0 : (long) (part * 1e6 / whole);
    }
}
