package dev.nicsim.riscv;

/**
 * A hart's instruction fetch: the fetch window the interpreter executes in without a look-up, and
 * the L1I line pair it enters without a call.
 *
 * <p>The window {@code [base, base + bytes)} is the page (flat models) or the L1I line (hierarchy
 * models) of the last fetch; leaving it finds the page and, with a hierarchy, looks the new line up
 * in the core's L1I ({@link #window}, {@link MemoryHierarchy#fetch}), a miss delaying the next issue
 * by the serving level's latency minus the L1I hit latency. The L1I line numbers of the last two
 * line fetches and their ways are kept: entering the older one again while its way still holds it
 * is a hit found without a full look-up (a loop spanning two lines). While the interpreter runs,
 * nothing but this hart's own line entries touches its core's L1I (threads of one core run one
 * {@link Hart#run} call at a time), so the interpreter enters that other line ({@link #altBase}) and
 * goes back and forth between the two inline, counting each entry in {@link #hits};
 * {@link #creditHits} credits them to the L1I before the next full look-up and when the run ends,
 * leaving the L1I exactly as one {@link #window} call per entry would.
 *
 * <p>Thread-safety: not thread-safe; belongs to one hart.
 */
final class FetchUnit {
    /** log2 of the fetch window: 12 (a page) without a hierarchy, else log2 of the L1I line (at most 12). */
    final int lineShift;
    /** The decoded page of the last fetch, or null before the first. */
    DecodedPage page;
    /** The window's start (Long.MIN_VALUE with {@code bytes == 0}: none). */
    long base = Long.MIN_VALUE;
    /** The window's size in bytes. */
    long bytes;
    /** The other line of the pair inside the current page ({@code altBytes == 0}: none). */
    long altBase;
    /** The other line's size in bytes, 0 when there is none. */
    long altBytes;
    /** Entries into the other line of the pair counted inline and not credited yet. */
    long hits;
    /** Cycles the hart waited for instruction lines that missed the L1I. */
    long stallCycles;
    /** The L1I line numbers ({@code pc >>> lineShift}, -1: none) of the last two line fetches and their ways. */
    private long lastLine = -1;
    private int lastWay;
    private long prevLine = -1;
    private int prevWay;
    /** The hierarchy timing the page of {@link #altBase}'s line (the one hits are credited to). */
    private MemoryHierarchy hierarchy;

    /**
     * Creates the fetch unit of a hart.
     *
     * @param model the cycle model (its memory hierarchy's L1I line size, if any)
     */
    FetchUnit(final CycleModel model) {
        lineShift = model.memory() == null ? 12 : Math.min(12, Integer.numberOfTrailingZeros(model.memory().l1i().lineBytes()));
    }

    /** @return whether pc lies inside the fetch window */
    boolean inWindow(final long pc) {
        return pc - base + Long.MIN_VALUE < bytes + Long.MIN_VALUE;
    }

    /** @return whether pc lies inside the other line of the pair */
    boolean inOtherLine(final long pc) {
        return pc - altBase + Long.MIN_VALUE < altBytes + Long.MIN_VALUE;
    }

    /** Enters the other line of the pair: the two swap and the entry counts as a hit. */
    void swapLines() {
        final long b = altBase;
        final long l = altBytes;
        altBase = base;
        altBytes = bytes;
        base = b;
        bytes = l;
        hits++;
    }

    /**
     * A translated block's next instruction starts at {@code pc}, in {@link #page}: what the
     * interpreter does there when pc is outside the window (the other line of the pair: a hit,
     * counted; else {@link #window}).
     *
     * @param pc the instruction's address
     * @return L1I miss cycles for the block to add to its cycle, 0 when none
     */
    int enterLine(final long pc) {
        if (inWindow(pc)) {
            return 0;
        }
        if (inOtherLine(pc)) {
            swapLines();
            return 0;
        }
        return window(page, pc);
    }

    /**
     * The pc left the fetch window: sets the new one in its page and, when the page's region is
     * timed by a hierarchy, looks the new line up in the selected core's L1I; miss cycles are
     * added to {@link #stallCycles}.
     *
     * @param page the page holding pc
     * @param pc   the address fetched
     * @return stall cycles of an L1I miss, 0 on a hit or without a hierarchy
     */
    int window(final DecodedPage page, final long pc) {
        creditHits();
        final long pageBase = page.base;
        final MemoryHierarchy mh = page.region.hierarchy;
        altBytes = 0;
        if (lineShift == 12 || mh == null) {
            // no L1I times this page (a flat model, or an untimed region): the window is the page
            base = pageBase;
            bytes = DecodedPage.PAGE_BYTES;
            return 0;
        }
        // a new L1I line (clipped to the page, for regions not page-aligned)
        final long line = pc >>> lineShift << lineShift;
        base = Math.max(line, pageBase);
        bytes = Math.min(line + (1L << lineShift), pageBase + DecodedPage.PAGE_BYTES) - base;
        // the line before the last one this hart fetched, still in its way of the L1I: a hit,
        // re-stamped in place (what Tags.access does on a hit), no full lookup
        final long lineNo = pc >>> lineShift;
        final int core = mh.currentCore;
        final MemoryHierarchy.Tags l1i = mh.l1i[core];
        final int pw = prevWay;
        int miss = 0;
        final int way;
        if (lineNo == prevLine && l1i.tag[pw] == lineNo) {
            l1i.stamp[pw] = ++l1i.clock;
            mh.servedFetches[core * MemoryHierarchy.LEVELS]++;
            way = pw;
        } else {
            miss = mh.fetch(core, pc);
            way = l1i.way;
        }
        prevLine = lastLine;
        prevWay = lastWay;
        lastLine = lineNo;
        lastWay = way;
        if (prevLine >= 0 && l1i.tag[prevWay] == prevLine) {
            pairWindow(mh, pageBase);
        }
        stallCycles += miss;
        return miss;
    }

    /**
     * After {@link #window}: {@link #prevLine} is still in its way of the L1I; when it is another
     * line than {@link #lastLine} and (part of) it lies in this page, it becomes the other window
     * ({@link #altBase}), entered without a call.
     */
    private void pairWindow(final MemoryHierarchy mh, final long pageBase) {
        final long prev = prevLine;
        if (prev == lastLine) {
            return;
        }
        final long prevStart = prev << lineShift;
        final long start = Math.max(prevStart, pageBase);
        final long end = Math.min(prevStart + (1L << lineShift), pageBase + DecodedPage.PAGE_BYTES);
        if (end > start) {
            altBase = start;
            altBytes = end - start;
            hierarchy = mh;
        }
    }

    /**
     * Before control leaves the interpreter loop for code that might look at the L1I or its
     * counters (a trap, an environment call, the tohost hook), and at the start of a run call
     * (other threads of the core may have used the L1I since): credits the hits counted inline and
     * drops the pair, so the next line entry is a full {@link #window} look-up.
     */
    void leavePair() {
        creditHits();
        altBytes = 0;
    }

    /**
     * Credits the L1I hits counted inline ({@link #hits}: entries alternating between
     * {@link #prevLine} and {@link #lastLine}, the first into the former) exactly as that many
     * {@link #window} ping-pong hits would have: the two lines swap roles once per entry, each
     * entry re-stamps its line with the next L1I clock tick, and each counts as a hit served by the
     * L1 ({@link MemoryHierarchy#servedFetches}).
     */
    void creditHits() {
        if (hits != 0) {
            creditHits(hits);
        }
    }

    private void creditHits(final long n) {
        hits = 0;
        final MemoryHierarchy mh = hierarchy;
        final int core = mh.currentCore;
        final MemoryHierarchy.Tags l1i = mh.l1i[core];
        if ((n & 1) != 0) {
            final long line = lastLine;
            final int way = lastWay;
            lastLine = prevLine;
            lastWay = prevWay;
            prevLine = line;
            prevWay = way;
        }
        l1i.clock += n;
        l1i.stamp[lastWay] = l1i.clock;
        if (n >= 2) {
            l1i.stamp[prevWay] = l1i.clock - 1;
        }
        mh.servedFetches[core * MemoryHierarchy.LEVELS + MemoryHierarchy.L1] += n;
    }
}
