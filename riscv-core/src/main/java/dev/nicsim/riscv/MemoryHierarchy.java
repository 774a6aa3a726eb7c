package dev.nicsim.riscv;

import java.util.Arrays;
import java.util.Locale;

/**
 * A cache hierarchy modelled by tags and timing only (gem5/Sniper style; the bytes stay in
 * {@link Memory}): an L1 data cache per hardware thread, an L1 instruction cache per core, an L2
 * and a last-level cache (LLC) shared by every core, then DRAM. A load asks the levels in order;
 * the first that holds its line serves it, and the line is then filled into every level above
 * (non-inclusive, fill on the way back). Replacement is least-recently-used within a set; the
 * set of a line is {@code line number mod sets}.
 *
 * <p><b>Timing.</b> Each level's latency is the load-to-use latency, in core cycles, of a load
 * that level serves (not an increment). The cycle model's load latency is the L1D hit latency, so
 * {@link #extraCycles} (the {@link RegionLatency} hook the hart calls for every load and AMO)
 * returns {@code servedLatency - l1d.latency}. Stores neither stall nor allocate (write-through,
 * no-write-allocate behind a store buffer: an assumption of the {@code bf3-dpa} model file).
 * <b>Instruction fetch</b> ({@link #fetch}): a hart whose pc enters a cache line other than
 * its last fetch's looks the line up in its core's L1I; a hit costs nothing (fetch is pipelined:
 * an assumption of the model file), a miss goes on to the L2, LLC and DRAM and costs that
 * level's latency minus the L1I hit latency. Code and data share the L2 and LLC.
 *
 * <p><b>Who accesses.</b> A core that interleaves threads calls {@link #select} before it issues
 * an instruction of a thread, so the hook charges that thread's L1D and counts for it.
 *
 * <p>Per (core, thread) it counts the loads each level served and the cycles of latency they had
 * ({@link #servedLoads}, {@link #servedCycles}), and per core the fetches each level served
 * ({@link #servedFetches}), for profiles. Allocation-free after construction.
 *
 * <p><b>L1D fast path.</b> Per (core, thread) it remembers the L1D's most recent line; a load to
 * it is a hit that leaves the LRU order as it is, so {@link Hart} tests it inline and counts the
 * hit without calling here (exactly the same timing and counts as a call).
 *
 * <p>Thread-safety: not thread-safe; one thread drives every core sharing it.
 */
public final class MemoryHierarchy implements RegionLatency {
    /** Index of the L1 data cache in the per-level counters. */
    public static final int L1 = 0;
    /** Index of the L2. */
    public static final int L2 = 1;
    /** Index of the last-level cache. */
    public static final int LLC = 2;
    /** Index of DRAM. */
    public static final int DRAM = 3;
    /** Number of levels counted (L1, L2, LLC, DRAM). */
    public static final int LEVELS = 4;

    /**
     * One cache level's geometry and load-to-use latency.
     *
     * @param sizeBytes     capacity in bytes, a multiple of {@code ways * lineBytes}, 64 B to 1 GiB
     * @param ways          associativity, 1 to 64
     * @param lineBytes     line size in bytes, a power of two 8 to 4096
     * @param latencyCycles load-to-use latency of a load this level serves, 1 to 100000 cycles
     */
    public record Level(int sizeBytes, int ways, int lineBytes, int latencyCycles) {
        /**
         * Validates.
         *
         * @throws IllegalArgumentException naming the bad field
         */
        public Level {
            if (lineBytes < 8 || lineBytes > 4096 || Integer.bitCount(lineBytes) != 1) {
                throw new IllegalArgumentException("line_bytes = " + lineBytes + " must be a power of two from 8 to 4096");
            }
            if (ways < 1 || ways > 64) {
                throw new IllegalArgumentException("ways = " + ways + " is out of range [1, 64]");
            }
            if (sizeBytes < 64 || sizeBytes > (1 << 30) || sizeBytes % (ways * lineBytes) != 0) {
                throw new IllegalArgumentException("size_bytes = " + sizeBytes + " must be 64 B to 1 GiB and a multiple of ways x line_bytes ("
                    + ways * lineBytes + ")");
            }
            if (latencyCycles < 1 || latencyCycles > 100_000) {
                throw new IllegalArgumentException("latency = " + latencyCycles + " is out of range [1, 100000]");
            }
        }

        /** @return number of sets */
        public int sets() {
            return sizeBytes / (ways * lineBytes);
        }
    }

    /**
     * The whole hierarchy.
     *
     * @param l1d               per hardware thread
     * @param l1i               per core
     * @param l2                shared
     * @param llc               shared last level
     * @param dramLatencyCycles load-to-use latency from DRAM, 1 to 100000 cycles
     */
    public record Config(Level l1d, Level l1i, Level l2, Level llc, int dramLatencyCycles) {
        /**
         * Validates: the DRAM latency is 1 to 100000 cycles and latencies must not decrease going
         * down the hierarchy.
         *
         * @throws IllegalArgumentException naming the bad field
         */
        public Config {
            if (dramLatencyCycles < 1 || dramLatencyCycles > 100_000) {
                throw new IllegalArgumentException("memory.dram.latency = " + dramLatencyCycles + " is out of range [1, 100000]");
            }
            if (l1d.latencyCycles() > l2.latencyCycles() || l2.latencyCycles() > llc.latencyCycles()
                || llc.latencyCycles() > dramLatencyCycles) {
                throw new IllegalArgumentException("memory latencies must not decrease from l1d to l2 to llc to dram: " + l1d.latencyCycles()
                    + ", " + l2.latencyCycles() + ", " + llc.latencyCycles() + ", " + dramLatencyCycles);
            }
        }
    }

    /**
     * Tags of one cache instance: set-associative, LRU by a use stamp. A caller that knows the way
     * a line sat in ({@link #way}) may re-use it as {@link #access} would on a hit: check
     * {@code tag[way] == line} and set {@code stamp[way] = ++clock}.
     */
    static final class Tags {
        final long[] tag;
        final long[] stamp;
        final int ways;
        final int sets;
        /** sets - 1 when sets is a power of two (every bf3-dpa level), else -1: the set index without a divide */
        final long setMask;
        final int lineShift;
        long clock;
        /** The way (index into tag) of the line the last {@link #access} hit or filled. */
        int way;

        Tags(final Level l) {
            ways = l.ways();
            sets = l.sets();
            setMask = Integer.bitCount(sets) == 1 ? sets - 1 : -1;
            lineShift = Integer.numberOfTrailingZeros(l.lineBytes());
            tag = new long[ways * sets];
            stamp = new long[ways * sets];
            Arrays.fill(tag, -1L);
        }

        /** @return whether the line was present; it is present (most recently used) afterwards */
        boolean access(final long address) {
            final long line = address >>> lineShift;
            final int base = (int) (setMask >= 0 ? line & setMask : Long.remainderUnsigned(line, sets)) * ways;
            final long now = ++clock;
            final long[] tg = tag;
            final int end = base + ways;
            for (int w = base; w < end; w++) {
                if (tg[w] == line) {
                    stamp[w] = now;
                    way = w;
                    return true;
                }
            }
            // a miss: the least recently used way of the set (the first of equal stamps)
            int victim = base;
            long oldest = stamp[base];
            for (int w = base + 1; w < end; w++) {
                if (stamp[w] < oldest) {
                    oldest = stamp[w];
                    victim = w;
                }
            }
            tag[victim] = line;
            stamp[victim] = now;
            way = victim;
            return false;
        }
    }

    private final Config config;
    private final int threadsPerCore;
    /** Per (core, thread) index: its L1D (read by {@link Hart}'s fast path). */
    final Tags[] l1d;
    /** Per core: its L1I (read by {@link Hart}'s fetch path). */
    final Tags[] l1i;
    private final Tags l2;
    private final Tags llc;
    private final int[] extra = new int[LEVELS];
    /** Load-to-use latency per level index (L1D, L2, LLC, DRAM), cycles. */
    private final int[] levelLatency = new int[LEVELS];
    /** Extra fetch cycles per level index beyond an L1I hit (0 for the L1I itself). */
    private final int[] fetchExtra = new int[LEVELS];
    /**
     * Per (core, thread) x level: loads served. Read and incremented inline by {@link Hart}'s L1D
     * fast path (index {@code current * LEVELS + L1}).
     */
    final long[] servedLoads;
    /** Per core x level: instruction-fetch line lookups served (level L1 = an L1I hit; {@link Hart} counts hits inline). */
    final long[] servedFetches;
    /**
     * Per (core, thread): the line number ({@code address >>> l1dLineShift}) of that thread's
     * L1D's most recent access, or -1. It is always the most recently used line of the whole
     * L1D, so a load to it hits and leaves the LRU order unchanged: {@link Hart} checks it inline
     * and then only counts the hit, with no call.
     */
    final long[] lastL1dLine;
    /** Per (core, thread): the way of {@link #lastL1dLine} in its L1D. */
    final int[] lastL1dWay;
    /**
     * Per (core, thread): the L1D's line accessed before {@link #lastL1dLine} (or -1) and its way;
     * a load to it hits when {@code tag[way]} still holds it, and is then re-stamped in place.
     */
    final long[] prevL1dLine;
    /** Per (core, thread): the way of {@link #prevL1dLine}. */
    final int[] prevL1dWay;
    /** log2 of the L1D line size. */
    final int l1dLineShift;
    /** Selected (core, thread) index: {@code core * threadsPerCore + thread}. */
    int current;
    /** Selected core. */
    int currentCore;

    /**
     * Creates an empty (cold) hierarchy.
     *
     * @param config         geometry and latencies
     * @param cores          cores sharing the L2 and LLC, 1 to 1024
     * @param threadsPerCore hardware threads per core (one L1D each), 1 to 64
     * @throws IllegalArgumentException when a count is out of range
     */
    public MemoryHierarchy(final Config config, final int cores, final int threadsPerCore) {
        if (cores < 1 || cores > 1024 || threadsPerCore < 1 || threadsPerCore > 64) {
            throw new IllegalArgumentException("cores (1..1024) x threads (1..64): " + cores + " x " + threadsPerCore);
        }
        this.config = config;
        this.threadsPerCore = threadsPerCore;
        l1d = new Tags[cores * threadsPerCore];
        for (int i = 0; i < l1d.length; i++) {
            l1d[i] = new Tags(config.l1d());
        }
        l1i = new Tags[cores];
        for (int i = 0; i < cores; i++) {
            l1i[i] = new Tags(config.l1i());
        }
        l2 = new Tags(config.l2());
        llc = new Tags(config.llc());
        final int base = config.l1d().latencyCycles();
        extra[L1] = 0;
        extra[L2] = config.l2().latencyCycles() - base;
        extra[LLC] = config.llc().latencyCycles() - base;
        extra[DRAM] = config.dramLatencyCycles() - base;
        for (int l = 0; l < LEVELS; l++) {
            levelLatency[l] = extra[l] + base;
        }
        final int hit = config.l1i().latencyCycles();
        fetchExtra[L1] = 0;
        fetchExtra[L2] = Math.max(0, config.l2().latencyCycles() - hit);
        fetchExtra[LLC] = Math.max(0, config.llc().latencyCycles() - hit);
        fetchExtra[DRAM] = Math.max(0, config.dramLatencyCycles() - hit);
        servedLoads = new long[l1d.length * LEVELS];
        servedFetches = new long[cores * LEVELS];
        lastL1dLine = new long[l1d.length];
        Arrays.fill(lastL1dLine, -1L);
        lastL1dWay = new int[l1d.length];
        prevL1dLine = new long[l1d.length];
        Arrays.fill(prevL1dLine, -1L);
        prevL1dWay = new int[l1d.length];
        l1dLineShift = Integer.numberOfTrailingZeros(config.l1d().lineBytes());
    }

    /** @return the configuration */
    public Config config() {
        return config;
    }

    /**
     * Names whose L1D and counters the next accesses use.
     *
     * @param core   core index
     * @param thread thread index within the core
     */
    public void select(final int core, final int thread) {
        current = core * threadsPerCore + thread;
        currentCore = core;
    }

    /**
     * A load (or the load half of an AMO) by the selected thread: looks the line up level by level
     * and fills it on the way back.
     *
     * @return the cycles beyond the L1D hit latency
     */
    @Override
    public int extraCycles(final long address, final int sizeBytes, final boolean store, final long cycle) {
        if (store) {
            return 0;
        }
        final int c = current;
        final long line = address >>> l1dLineShift;
        if (line == lastL1dLine[c]) {
            servedLoads[c * LEVELS + L1]++; // the L1D's most recent line: a hit, LRU order unchanged
            return 0;
        }
        final Tags t = l1d[c];
        final int pw = prevL1dWay[c];
        if (line == prevL1dLine[c] && t.tag[pw] == line) {
            // the line before the last: still held; re-stamp it as access() would, swap the two
            t.stamp[pw] = ++t.clock;
            prevL1dLine[c] = lastL1dLine[c];
            prevL1dWay[c] = lastL1dWay[c];
            lastL1dLine[c] = line;
            lastL1dWay[c] = pw;
            servedLoads[c * LEVELS + L1]++;
            return 0;
        }
        final boolean hit = t.access(address);
        prevL1dLine[c] = lastL1dLine[c];
        prevL1dWay[c] = lastL1dWay[c];
        lastL1dLine[c] = line;
        lastL1dWay[c] = t.way;
        final int level = hit ? L1 : servedBelowL1(address);
        servedLoads[c * LEVELS + level]++;
        return extra[level];
    }

    /**
     * An instruction fetch of a line by a core: L1I, then the shared L2, LLC and DRAM (filling
     * every level above on the way back, as a load does).
     *
     * @param core    core index
     * @param address fetch address
     * @return cycles beyond an L1I hit (0 on a hit; a miss served by level X costs X's latency
     *         minus the L1I hit latency, which pipelined fetch hides)
     */
    public int fetch(final int core, final long address) {
        final int level = l1i[core].access(address) ? L1 : servedBelowL1(address);
        servedFetches[core * LEVELS + level]++;
        return fetchExtra[level];
    }

    /**
     * The level that serves a line an L1 (data or instruction) missed: the shared L2, then the LLC, then
     * DRAM, filling every cache above on the way back.
     *
     * @param address the line's address
     * @return {@link #L2}, {@link #LLC} or {@link #DRAM}
     */
    private int servedBelowL1(final long address) {
        if (l2.access(address)) {
            return L2;
        }
        return llc.access(address) ? LLC : DRAM;
    }

    /**
     * Instruction-fetch line lookups of a core served by a level since construction.
     *
     * @param core  core
     * @param level {@link #L1} (an L1I hit), {@link #L2}, {@link #LLC} or {@link #DRAM}
     * @return count
     */
    public long servedFetches(final int core, final int level) {
        return servedFetches[core * LEVELS + level];
    }

    /**
     * Loads served by a level for a thread since construction.
     *
     * @param core   core
     * @param thread thread
     * @param level  {@link #L1}, {@link #L2}, {@link #LLC} or {@link #DRAM}
     * @return count
     */
    public long servedLoads(final int core, final int thread, final int level) {
        return servedLoads[(core * threadsPerCore + thread) * LEVELS + level];
    }

    /**
     * Load-to-use latency cycles of the loads a level served for a thread since construction.
     *
     * @param core   core
     * @param thread thread
     * @param level  level index
     * @return cycles
     */
    public long servedCycles(final int core, final int thread, final int level) {
        return servedLoads[(core * threadsPerCore + thread) * LEVELS + level] * levelLatency[level];
    }


    @Override
    public String toString() {
        return String.format(Locale.ROOT, "MemoryHierarchy[l1d %s, l1i %s, l2 %s, llc %s, dram %d cycles]", config.l1d(), config.l1i(),
            config.l2(), config.llc(), config.dramLatencyCycles());
    }
}
