package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEventType;
import org.HdrHistogram.AbstractHistogram;

import java.util.Arrays;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;

/**
 * The counters of an emulator's cores, summed and named as {@link UnicEmulator#forEachCounter}
 * documents them. The names are made once per run and shared by every emulator (a fabric has one
 * per NIC), so a visit allocates nothing. A core not made yet (a null entry: {@link UnicEmulator}
 * makes cores on first use) counts zeros under its names; the algorithm's counter names come from
 * the emulator's first instance, so they need no core.
 *
 * <p>Thread-safety: call only while no thread runs the cores (stepped, or free-running stopped).
 * The shared names are made under a lock, so emulators may be built on several threads.
 */
final class EmulatorCounters {
    private static final String[][] TYPE_NAMES = new String[PccEventType.COUNT][3];
    /** Per core i, its six counter names; shared, grown (never changed) under the class lock. */
    private static String[][] sharedCoreNames = new String[0][];

    static {
        for (int t = 0; t < PccEventType.COUNT; t++) {
            final String s = PccEventType.shortName(t);
            TYPE_NAMES[t][0] = s + "_events_handled";
            TYPE_NAMES[t][1] = s + "_events_coalesced";
            TYPE_NAMES[t][2] = s + "_events_dropped";
        }
    }

    /** The emulator's cores, null where not made yet (the emulator's own array, read live). */
    private final EmulatorCore[] cores;
    private final PccAlgorithm firstAlgorithm;
    /** Names of cores 0..cores.length-1 (at least; shared). */
    private final String[][] coreNames;

    /**
     * @param cores          the emulator's cores, null where not made yet
     * @param firstAlgorithm an instance of the cores' algorithm (names its counters; its counters
     *                       count only if it is a core's)
     */
    EmulatorCounters(final EmulatorCore[] cores, final PccAlgorithm firstAlgorithm) {
        this.cores = cores;
        this.firstAlgorithm = firstAlgorithm;
        coreNames = coreNames(cores.length);
    }

    /** @param n cores @return the shared per-core names, rows for at least n cores */
    private static synchronized String[][] coreNames(final int n) {
        if (sharedCoreNames.length < n) {
            final String[][] names = Arrays.copyOf(sharedCoreNames, n);
            for (int i = sharedCoreNames.length; i < n; i++) {
                final String p = "core" + i + "_";
                names[i] = new String[] {p + "events_handled", p + "events_coalesced", p + "events_dropped",
                    p + "busy_cycles", p + "utilisation_ppm", p + "ring_high_water_events"};
            }
            sharedCoreNames = names;
        }
        return sharedCoreNames;
    }

    /** @param eventType event type @return events of that type handled, all cores */
    long handled(final int eventType) {
        return allCores(c -> c.handled, eventType);
    }

    /** @param eventType event type @return events of that type merged into a waiting one, all cores */
    long coalesced(final int eventType) {
        return allCores(c -> c.coalesced, eventType);
    }

    /** @param eventType event type @return events of that type dropped at a full queue, all cores */
    long dropped(final int eventType) {
        return allCores(c -> c.dropped, eventType);
    }

    /** @param counts a core's per-type counts @param eventType event type @return the sum over the cores made */
    private long allCores(final Function<EmulatorCore, long[]> counts, final int eventType) {
        long s = 0;
        for (final EmulatorCore c : cores) {
            if (c != null) {
                s += counts.apply(c)[eventType];
            }
        }
        return s;
    }

    /** @param core core index @return events that core handled, all types */
    long coreHandled(final int core) {
        return cores[core] == null ? 0 : allTypes(cores[core].handled);
    }

    /** @param counts a core's per-type counts @return their sum over the event types */
    private static long allTypes(final long[] counts) {
        long s = 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            s += counts[t];
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
            if (c == null) {
                continue;
            }
            accepted += c.accepted();
            unknown += c.unknownFlow;
            hits += c.contextCache.hits;
            misses += c.contextCache.misses;
            busy += c.busyCycles;
            highWater = Math.max(highWater, c.ringHighWater);
        }
        for (int t = 0; t < PccEventType.COUNT; t++) {
            visitor.accept(TYPE_NAMES[t][0], handled(t));
            visitor.accept(TYPE_NAMES[t][1], coalesced(t));
            visitor.accept(TYPE_NAMES[t][2], dropped(t));
        }
        visitor.accept("events_accepted", accepted);
        visitor.accept("events_for_unknown_flow", unknown);
        visitor.accept("context_cache_hits", hits);
        visitor.accept("context_cache_misses", misses);
        visitor.accept("busy_cycles", busy);
        visitor.accept("elapsed_cycles", elapsed);
        visitor.accept("utilisation_ppm", ppm(busy, elapsed * cores.length));
        visitor.accept("ring_high_water_events", highWater);
        final AbstractHistogram latencyNs = latency.ns();
        final AbstractHistogram latencyCycles = latency.cycles();
        // (empty histograms when nothing was recorded: every figure 0)
        visitor.accept("latency_samples", latencyNs.getTotalCount());
        visitor.accept("latency_p50_ns", latencyNs.getValueAtPercentile(50));
        visitor.accept("latency_p99_ns", latencyNs.getValueAtPercentile(99));
        visitor.accept("latency_max_ns", latencyNs.getMaxValue());
        visitor.accept("latency_p50_cycles", latencyCycles.getValueAtPercentile(50));
        visitor.accept("latency_p99_cycles", latencyCycles.getValueAtPercentile(99));
        visitor.accept("latency_max_cycles", latencyCycles.getMaxValue());
        for (int i = 0; i < cores.length; i++) {
            final EmulatorCore c = cores[i];
            if (c == null) {
                for (int k = 0; k < coreNames[i].length; k++) {
                    visitor.accept(coreNames[i][k], 0L); // never used: zeros, as an eager core's
                }
                continue;
            }
            visitor.accept(coreNames[i][0], allTypes(c.handled));
            visitor.accept(coreNames[i][1], allTypes(c.coalesced));
            visitor.accept(coreNames[i][2], allTypes(c.dropped));
            visitor.accept(coreNames[i][3], c.busyCycles);
            visitor.accept(coreNames[i][4], ppm(c.busyCycles, elapsed));
            visitor.accept(coreNames[i][5], c.ringHighWater);
        }
        final PccCounters first = firstAlgorithm.counters();
        for (int k = 0; k < first.size(); k++) {
            long s = 0;
            for (final EmulatorCore c : cores) {
                if (c == null) {
                    continue; // a fresh instance counts zeros
                }
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
