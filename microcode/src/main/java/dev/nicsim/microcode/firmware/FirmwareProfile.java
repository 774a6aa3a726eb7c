package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.riscv.MemoryHierarchy;
import dev.nicsim.riscv.TimingClass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What firmware handlers cost, event by event ({@code nicsim firmware profile}): per event type the
 * instructions and cycles of every handler call (for percentiles), the stall cycles by cause, and
 * per function (the symbol at or below each retired instruction's pc) the cycles spent in it.
 *
 * <p>Thread-safety: not thread-safe; one thread records, then reads.
 */
public final class FirmwareProfile {
    private final FirmwareImage image;
    private final long[][] instructions = new long[PccEventType.COUNT][];
    private final long[][] cycles = new long[PccEventType.COUNT][];
    private final int[] count = new int[PccEventType.COUNT];
    private final long[][] stalls = new long[PccEventType.COUNT][TimingClass.values().length + 2];
    private final int[] abandoned = new int[PccEventType.COUNT];
    /** Per type: load-use stall cycles attributed to the level that served the loads (L1, L2, LLC, DRAM). */
    private final double[][] levelStalls = new double[PccEventType.COUNT][MemoryHierarchy.LEVELS];
    /** Per type: cycles a handler was ready but another thread had the issue slot. */
    private final long[] slotWait = new long[PccEventType.COUNT];
    private final Map<Long, String> functionOfPc = new HashMap<>();
    private final Map<String, long[]> functionCycles = new HashMap<>();
    private final Sampler sampler = this::instruction;
    /** Captured event records (the mix a saturating run replays), at most {@link #MAX_CAPTURED}. */
    private final org.agrona.ExpandableArrayBuffer captured = new org.agrona.ExpandableArrayBuffer(64 * 1024);
    private int capturedCount;
    /** Most events a profile captures for {@link FirmwareSaturation}. */
    public static final int MAX_CAPTURED = 1 << 16;

    /** Receives one retired instruction's pc and cycles. */
    @FunctionalInterface
    public interface Sampler {
        /**
         * One instruction.
         *
         * @param pc     its address
         * @param cycles cycles from its issue slot to the next instruction's (stalls included)
         */
        void instruction(long pc, long cycles);
    }

    FirmwareProfile(final FirmwareImage image) {
        this.image = image;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            instructions[t] = new long[64];
            cycles[t] = new long[64];
        }
    }

    Sampler sampler() {
        return sampler;
    }

    /**
     * Keeps a copy of an event record (up to {@link #MAX_CAPTURED}), so that a saturating run can
     * replay the same mix.
     *
     * @param e the event
     */
    void capture(final PccEvent e) {
        if (capturedCount < MAX_CAPTURED) {
            captured.putBytes(capturedCount * PccEventLayout.RECORD_LENGTH, e.buffer(), e.offset(),
                PccEventLayout.RECORD_LENGTH);
            capturedCount++;
        }
    }

    /** @return events captured */
    public int capturedCount() {
        return capturedCount;
    }

    /** @return the captured records, {@link PccEventLayout#RECORD_LENGTH} bytes each */
    public org.agrona.DirectBuffer captured() {
        return captured;
    }

    /** Forgets every call recorded so far (not the captured events): after a warm-up. */
    void clearCalls() {
        Arrays.fill(count, 0);
        Arrays.fill(abandoned, 0);
        Arrays.fill(slotWait, 0);
        for (int t = 0; t < PccEventType.COUNT; t++) {
            Arrays.fill(stalls[t], 0);
            Arrays.fill(levelStalls[t], 0);
        }
        functionCycles.clear();
    }

    private void instruction(final long pc, final long c) {
        String f = functionOfPc.get(pc);
        if (f == null) {
            final String d = image.describe(pc);
            final int plus = d.indexOf('+');
            f = plus < 0 ? d : d.substring(0, plus);
            functionOfPc.put(pc, f);
        }
        final long[] v = functionCycles.computeIfAbsent(f, k -> new long[2]);
        v[0] += c;
        v[1]++;
    }

    /** The timing classes, cloned once (values() copies the array on every call). */
    private static final TimingClass[] CLASSES = TimingClass.values();

    /**
     * One handler call.
     *
     * <p>Stall attribution: the load-use stall cycles (operands waiting for loads and AMOs) are
     * split over the levels in proportion to the load-to-use latency cycles each level served in
     * this call (so "L1" is waiting for L1 hits' 18 cycles, "DRAM" for DRAM's 540). The issue-slot
     * wait is what is left of the latency after one cycle per instruction and every stall.
     */
    void event(final int type, final long instr, final long cyc, final long[] stallsBefore, final long[] stallsAfter,
               final long[] levelsBefore, final long[] levelsAfter, final boolean wasAbandoned) {
        final TimingClass[] cs = CLASSES;
        long loadStall = 0;
        long allStalls = 0;
        for (int i = 0; i < stallsBefore.length; i++) {
            final long d = stallsAfter[i] - stallsBefore[i];
            allStalls += d;
            if (i < cs.length && (cs[i] == TimingClass.LOAD || cs[i] == TimingClass.LOAD_SUBWORD || cs[i] == TimingClass.AMO)) {
                loadStall += d;
            }
        }
        long served = 0;
        for (int l = 0; l < levelsBefore.length; l++) {
            served += levelsAfter[l] - levelsBefore[l];
        }
        if (served > 0) {
            for (int l = 0; l < levelsBefore.length; l++) {
                levelStalls[type][l] += loadStall * (double) (levelsAfter[l] - levelsBefore[l]) / served;
            }
        }
        slotWait[type] += Math.max(0, cyc - instr - allStalls);
        if (count[type] == instructions[type].length) {
            instructions[type] = Arrays.copyOf(instructions[type], count[type] * 2);
            cycles[type] = Arrays.copyOf(cycles[type], count[type] * 2);
        }
        instructions[type][count[type]] = instr;
        cycles[type][count[type]] = cyc;
        count[type]++;
        for (int i = 0; i < stallsBefore.length; i++) {
            stalls[type][i] += stallsAfter[i] - stallsBefore[i];
        }
        if (wasAbandoned) {
            abandoned[type]++;
        }
    }

    /**
     * Per-type figures.
     *
     * @param type             event type
     * @param events           handler calls
     * @param abandoned        of which abandoned (fault or budget)
     * @param instructionsP50  instructions, nearest-rank median
     * @param instructionsP99  instructions, nearest-rank 99th percentile
     * @param instructionsMax  instructions, maximum
     * @param cyclesP50        cycles, median
     * @param cyclesP99        cycles, 99th percentile
     * @param cyclesMax        cycles, maximum
     * @param cpi              total cycles / total instructions
     * @param stallCycles      stall cycles by cause: the timing classes in {@link TimingClass} order, then control flow,
     *                         then instruction fetch (L1I misses; 0 without a memory hierarchy)
     */
    public record TypeFigures(int type, int events, int abandoned, long instructionsP50, long instructionsP99, long instructionsMax,
                              long cyclesP50, long cyclesP99, long cyclesMax, double cpi, long[] stallCycles) {
    }

    /**
     * The figures of one event type.
     *
     * @param type event type
     * @return its figures (zeros when none was handled)
     */
    public TypeFigures figures(final int type) {
        final int n = count[type];
        final long[] in = Arrays.copyOf(instructions[type], n);
        final long[] cy = Arrays.copyOf(cycles[type], n);
        Arrays.sort(in);
        Arrays.sort(cy);
        long si = 0;
        long sc = 0;
        for (int i = 0; i < n; i++) {
            si += in[i];
            sc += cy[i];
        }
        return new TypeFigures(type, n, abandoned[type], rank(in, 50), rank(in, 99), n == 0 ? 0 : in[n - 1], rank(cy, 50),
            rank(cy, 99), n == 0 ? 0 : cy[n - 1], si == 0 ? 0 : sc / (double) si, stalls[type].clone());
    }

    /**
     * Load-use stall cycles of a type attributed to a memory level, summed over its calls.
     *
     * @param type  event type
     * @param level {@link MemoryHierarchy#L1} .. {@link MemoryHierarchy#DRAM}
     * @return cycles (0 without a hierarchy)
     */
    public double levelStallCycles(final int type, final int level) {
        return levelStalls[type][level];
    }

    /**
     * Cycles a type's handlers were ready to issue while other threads held the slot, summed.
     *
     * @param type event type
     * @return cycles
     */
    public long slotWaitCycles(final int type) {
        return slotWait[type];
    }

    /**
     * Mean cycles per call of a type.
     *
     * @param type event type
     * @return mean, 0 when none
     */
    public double meanCycles(final int type) {
        final int n = count[type];
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += cycles[type][i];
        }
        return n == 0 ? 0 : s / (double) n;
    }

    private static long rank(final long[] sorted, final int pct) {
        if (sorted.length == 0) {
            return 0;
        }
        final int i = (int) Math.ceil(pct / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /**
     * One function's share.
     *
     * @param name         symbol
     * @param cycles       cycles spent in its instructions
     * @param instructions instructions retired in it
     */
    public record FunctionFigures(String name, long cycles, long instructions) {
    }

    /**
     * The hottest functions.
     *
     * @param n how many
     * @return up to n, most cycles first (ties by name)
     */
    public List<FunctionFigures> hottest(final int n) {
        final List<FunctionFigures> l = new ArrayList<>();
        for (final Map.Entry<String, long[]> e : functionCycles.entrySet()) {
            l.add(new FunctionFigures(e.getKey(), e.getValue()[0], e.getValue()[1]));
        }
        l.sort((a, b) -> a.cycles() != b.cycles() ? Long.compare(b.cycles(), a.cycles()) : a.name().compareTo(b.name()));
        return l.subList(0, Math.min(n, l.size()));
    }

    /** @return cycles of every profiled call */
    public long totalCycles() {
        long s = 0;
        for (final long[] v : functionCycles.values()) {
            s += v[0];
        }
        return s;
    }
}
