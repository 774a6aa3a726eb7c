package dev.nicsim.microcode.emulator;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccEventType;

import java.util.Arrays;

/**
 * Configuration of the many-core uNIC emulator ({@link UnicEmulator}): how many cores and hardware
 * threads, how fast they are, how deep each core's event ring is, how large its context cache is,
 * and what each stage of handling an event costs in cycles (docs/architecture.md "The uNIC emulator").
 *
 * <table>
 *   <caption>fields, defaults and ranges</caption>
 *   <tr><th>field</th><th>default</th><th>range</th><th>meaning</th></tr>
 *   <tr><td>{@code cores}</td><td>16</td><td>1..1024</td><td>emulated CC cores; each QP belongs to one
 *       (BlueField-3 class: 16 cores x 16 threads, the DOCA PCC device model, docs/architecture.md)</td></tr>
 *   <tr><td>{@code threadsPerCore}</td><td>16</td><td>1..1024</td><td>hardware threads per core</td></tr>
 *   <tr><td>{@code clockHz}</td><td>1,000,000,000</td><td>10^3..10^12</td><td>core clock, Hz</td></tr>
 *   <tr><td>{@code ringCapacity}</td><td>256</td><td>1..65,536</td><td>events a core's queue holds
 *       (ring, when free-running, plus pending table); one more is dropped</td></tr>
 *   <tr><td>{@code contextCacheEntries}</td><td>256</td><td>0..2^24</td><td>flow contexts a core's LRU
 *       context cache holds (0: every fetch misses)</td></tr>
 *   <tr><td>{@code dispatchCycles}</td><td>8</td><td>0..10^6</td><td>taking an event off the queue and
 *       starting a thread on it</td></tr>
 *   <tr><td>{@code contextHitCycles}</td><td>4</td><td>0..10^6</td><td>context fetch that hits, issued
 *       on the core</td></tr>
 *   <tr><td>{@code contextMissCycles}</td><td>120</td><td>0..10^6</td><td>context fetch that misses
 *       (memory latency); the thread waits without holding the core</td></tr>
 *   <tr><td>{@code writeBackCycles}</td><td>8</td><td>0..10^6</td><td>writing the result and the
 *       context back</td></tr>
 *   <tr><td>{@code coalescing}</td><td>true</td><td>-</td><td>merge an event into a waiting one of
 *       the same flow and type</td></tr>
 *   <tr><td>{@code overloadHighWaterMark}</td><td>-1 (= ringCapacity x 3 / 4)</td>
 *       <td>-1 or 0..ringCapacity</td><td>the algorithm sees {@code overloaded} while more events
 *       than this wait in the core's queue</td></tr>
 *   <tr><td>{@code handlerCycles[type]}</td><td>-1 (= the algorithm's
 *       {@link PccAlgorithm#handlerCycles})</td><td>-1 or 0..10^6</td>
 *       <td>per-event-type override of the handler length</td></tr>
 * </table>
 *
 * <p>The cycle defaults are estimates, not measurements: a short scheduler hand-off, an on-chip
 * context SRAM hit of a few cycles, a DRAM-latency miss of about 120 ns at 1 GHz, and a write-back
 * comparable to the dispatch. Setters only store; {@link #validate()} checks every field and
 * {@link UnicEmulator} validates a copy when it is created.
 *
 * <p>Thread-safety: not thread-safe; configure on one thread, then hand to the emulator (which copies).
 */
public final class EmulatorConfig {
    /** Default {@link #cores()} (BlueField-3: 16). */
    public static final int DEFAULT_CORES = 16;
    /** Default {@link #threadsPerCore()} (BlueField-3: 16). */
    public static final int DEFAULT_THREADS_PER_CORE = 16;
    /** Default {@link #clockHz()}, Hz (1 GHz). */
    public static final long DEFAULT_CLOCK_HZ = 1_000_000_000L;
    /** Default {@link #ringCapacity()}, events. */
    public static final int DEFAULT_RING_CAPACITY = 256;
    /** Default {@link #contextCacheEntries()}, flows. */
    public static final int DEFAULT_CONTEXT_CACHE_ENTRIES = 256;
    /** Default {@link #dispatchCycles()}, cycles. */
    public static final int DEFAULT_DISPATCH_CYCLES = 8;
    /** Default {@link #contextHitCycles()}, cycles. */
    public static final int DEFAULT_CONTEXT_HIT_CYCLES = 4;
    /** Default {@link #contextMissCycles()}, cycles. */
    public static final int DEFAULT_CONTEXT_MISS_CYCLES = 120;
    /** Default {@link #writeBackCycles()}, cycles. */
    public static final int DEFAULT_WRITE_BACK_CYCLES = 8;
    /** Default {@link #coalescing()}. */
    public static final boolean DEFAULT_COALESCING = true;
    /** Largest cycle count any stage may be configured to. */
    public static final int MAX_STAGE_CYCLES = 1_000_000;
    /** Largest ring capacity in events. */
    public static final int MAX_RING_CAPACITY = 65_536;
    /** Value of {@link #overloadHighWaterMark()} and handler overrides meaning "derive the default". */
    public static final int DEFAULT = -1;

    private int cores = DEFAULT_CORES;
    private int threadsPerCore = DEFAULT_THREADS_PER_CORE;
    private long clockHz = DEFAULT_CLOCK_HZ;
    private int ringCapacity = DEFAULT_RING_CAPACITY;
    private int contextCacheEntries = DEFAULT_CONTEXT_CACHE_ENTRIES;
    private int dispatchCycles = DEFAULT_DISPATCH_CYCLES;
    private int contextHitCycles = DEFAULT_CONTEXT_HIT_CYCLES;
    private int contextMissCycles = DEFAULT_CONTEXT_MISS_CYCLES;
    private int writeBackCycles = DEFAULT_WRITE_BACK_CYCLES;
    private boolean coalescing = DEFAULT_COALESCING;
    private int overloadHighWaterMark = DEFAULT;
    private final int[] handlerCycles = filled(DEFAULT);

    /** Creates a configuration holding every default (see the class table). */
    public EmulatorConfig() {
    }

    private static int[] filled(final int value) {
        final int[] a = new int[PccEventType.COUNT];
        Arrays.fill(a, value);
        return a;
    }

    /**
     * A configuration whose every stage costs zero cycles (dispatch, context hit and miss,
     * write-back and all handlers): each event completes at its arrival, so the emulator behaves as
     * {@link DirectCcProcessor} does.
     *
     * @return a new configuration with the other fields at their defaults
     */
    public static EmulatorConfig zeroCost() {
        final EmulatorConfig c = new EmulatorConfig().dispatchCycles(0).contextHitCycles(0)
            .contextMissCycles(0).writeBackCycles(0);
        for (int t = 0; t < PccEventType.COUNT; t++) {
            c.handlerCycles(t, 0);
        }
        return c;
    }

    /**
     * Checks every field.
     *
     * @return this
     * @throws IllegalArgumentException naming the first field out of range and the range expected
     */
    public EmulatorConfig validate() {
        check("cores", cores, 1, 1024);
        check("threadsPerCore", threadsPerCore, 1, 1024);
        if (clockHz < 1_000L || clockHz > 1_000_000_000_000L) {
            throw new IllegalArgumentException("clockHz must be in 1000..1000000000000 Hz, got " + clockHz);
        }
        check("ringCapacity", ringCapacity, 1, MAX_RING_CAPACITY);
        check("contextCacheEntries", contextCacheEntries, 0, 1 << 24);
        check("dispatchCycles", dispatchCycles, 0, MAX_STAGE_CYCLES);
        check("contextHitCycles", contextHitCycles, 0, MAX_STAGE_CYCLES);
        check("contextMissCycles", contextMissCycles, 0, MAX_STAGE_CYCLES);
        check("writeBackCycles", writeBackCycles, 0, MAX_STAGE_CYCLES);
        if (overloadHighWaterMark != DEFAULT) {
            check("overloadHighWaterMark", overloadHighWaterMark, 0, ringCapacity);
        }
        for (int t = 0; t < PccEventType.COUNT; t++) {
            if (handlerCycles[t] != DEFAULT) {
                check("handlerCycles[" + PccEventType.shortName(t) + "]", handlerCycles[t], 0, MAX_STAGE_CYCLES);
            }
        }
        return this;
    }

    private static void check(final String field, final long value, final long min, final long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " must be in " + min + ".." + max + ", got " + value);
        }
    }

    /** @return an independent copy */
    public EmulatorConfig copy() {
        final EmulatorConfig c = new EmulatorConfig();
        c.cores = cores;
        c.threadsPerCore = threadsPerCore;
        c.clockHz = clockHz;
        c.ringCapacity = ringCapacity;
        c.contextCacheEntries = contextCacheEntries;
        c.dispatchCycles = dispatchCycles;
        c.contextHitCycles = contextHitCycles;
        c.contextMissCycles = contextMissCycles;
        c.writeBackCycles = writeBackCycles;
        c.coalescing = coalescing;
        c.overloadHighWaterMark = overloadHighWaterMark;
        System.arraycopy(handlerCycles, 0, c.handlerCycles, 0, handlerCycles.length);
        return c;
    }

    /** @return number of emulated cores, 1..1024 */
    public int cores() {
        return cores;
    }

    /**
     * @param cores number of emulated cores, 1..1024 (checked by {@link #validate()})
     * @return this
     */
    public EmulatorConfig cores(final int cores) {
        this.cores = cores;
        return this;
    }

    /** @return hardware threads per core, 1..1024 */
    public int threadsPerCore() {
        return threadsPerCore;
    }

    /**
     * @param threadsPerCore hardware threads per core, 1..1024
     * @return this
     */
    public EmulatorConfig threadsPerCore(final int threadsPerCore) {
        this.threadsPerCore = threadsPerCore;
        return this;
    }

    /** @return core clock, Hz */
    public long clockHz() {
        return clockHz;
    }

    /**
     * @param clockHz core clock in Hz, 10^3..10^12
     * @return this
     */
    public EmulatorConfig clockHz(final long clockHz) {
        this.clockHz = clockHz;
        return this;
    }

    /** @return events one core's queue holds (ring plus pending table) */
    public int ringCapacity() {
        return ringCapacity;
    }

    /**
     * @param ringCapacity events one core's queue holds, 1..65,536
     * @return this
     */
    public EmulatorConfig ringCapacity(final int ringCapacity) {
        this.ringCapacity = ringCapacity;
        return this;
    }

    /** @return flow contexts one core's context cache holds */
    public int contextCacheEntries() {
        return contextCacheEntries;
    }

    /**
     * @param contextCacheEntries flow contexts one core's LRU cache holds, 0..2^24 (0: always miss)
     * @return this
     */
    public EmulatorConfig contextCacheEntries(final int contextCacheEntries) {
        this.contextCacheEntries = contextCacheEntries;
        return this;
    }

    /** @return cycles to dispatch an event to a hardware thread */
    public int dispatchCycles() {
        return dispatchCycles;
    }

    /**
     * @param dispatchCycles cycles to dispatch an event to a thread, 0..10^6
     * @return this
     */
    public EmulatorConfig dispatchCycles(final int dispatchCycles) {
        this.dispatchCycles = dispatchCycles;
        return this;
    }

    /** @return cycles of a context fetch that hits the cache (core busy) */
    public int contextHitCycles() {
        return contextHitCycles;
    }

    /**
     * @param contextHitCycles cycles of a context-cache hit, 0..10^6
     * @return this
     */
    public EmulatorConfig contextHitCycles(final int contextHitCycles) {
        this.contextHitCycles = contextHitCycles;
        return this;
    }

    /** @return cycles of a context fetch that misses (thread waits, core free) */
    public int contextMissCycles() {
        return contextMissCycles;
    }

    /**
     * @param contextMissCycles latency of a context-cache miss in cycles, 0..10^6
     * @return this
     */
    public EmulatorConfig contextMissCycles(final int contextMissCycles) {
        this.contextMissCycles = contextMissCycles;
        return this;
    }

    /** @return cycles to write the result and context back */
    public int writeBackCycles() {
        return writeBackCycles;
    }

    /**
     * @param writeBackCycles cycles of the result write-back, 0..10^6
     * @return this
     */
    public EmulatorConfig writeBackCycles(final int writeBackCycles) {
        this.writeBackCycles = writeBackCycles;
        return this;
    }

    /** @return whether events coalesce into a waiting event of the same flow and type */
    public boolean coalescing() {
        return coalescing;
    }

    /**
     * @param coalescing whether events coalesce (default true)
     * @return this
     */
    public EmulatorConfig coalescing(final boolean coalescing) {
        this.coalescing = coalescing;
        return this;
    }

    /** @return the configured high-water mark in events, or {@link #DEFAULT} */
    public int overloadHighWaterMark() {
        return overloadHighWaterMark;
    }

    /**
     * @param overloadHighWaterMark events waiting above which the algorithm sees the overload flag,
     *                              0..ringCapacity, or {@link #DEFAULT} for ringCapacity x 3 / 4
     * @return this
     */
    public EmulatorConfig overloadHighWaterMark(final int overloadHighWaterMark) {
        this.overloadHighWaterMark = overloadHighWaterMark;
        return this;
    }

    /** @return the high-water mark in force: the configured one, or floor(ringCapacity x 3 / 4) */
    public int effectiveOverloadHighWaterMark() {
        return overloadHighWaterMark == DEFAULT ? (int) ((long) ringCapacity * 3 / 4) : overloadHighWaterMark;
    }

    /**
     * Overrides the handler length of one event type (a scenario's estimate instead of the
     * algorithm's {@link PccAlgorithm#handlerCycles}).
     *
     * @param eventType event type, {@code 0 .. PccEventType.COUNT-1}
     * @param cycles    cycles 0..10^6, or {@link #DEFAULT} to use the algorithm's estimate
     * @return this
     * @throws IllegalArgumentException if {@code eventType} is not a valid type
     */
    public EmulatorConfig handlerCycles(final int eventType, final int cycles) {
        PccEventType.shortName(eventType); // validates the type
        handlerCycles[eventType] = cycles;
        return this;
    }

    /**
     * @param eventType event type, {@code 0 .. PccEventType.COUNT-1}
     * @return the override for that type, or {@link #DEFAULT}
     * @throws IllegalArgumentException if {@code eventType} is not a valid type
     */
    public int handlerCyclesOverride(final int eventType) {
        PccEventType.shortName(eventType);
        return handlerCycles[eventType];
    }

    @Override
    public String toString() {
        return "EmulatorConfig{cores=" + cores + ", threadsPerCore=" + threadsPerCore + ", clockHz=" + clockHz
            + ", ringCapacity=" + ringCapacity + ", contextCacheEntries=" + contextCacheEntries
            + ", dispatchCycles=" + dispatchCycles + ", contextHitCycles=" + contextHitCycles
            + ", contextMissCycles=" + contextMissCycles + ", writeBackCycles=" + writeBackCycles
            + ", coalescing=" + coalescing + ", overloadHighWaterMark=" + overloadHighWaterMark
            + ", handlerCycles=" + Arrays.toString(handlerCycles) + "}";
    }
}
