package dev.nicsim.riscv;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The translator's differential harness: two harts that start in the same state, one on the
 * interpreter ({@link Hart.Engine#INTERP}, the reference) and one on the translator, run side by
 * side; after every step of the translator (one translated block, or one instruction it left to
 * the interpreter) the reference runs to the same retired-instruction count (and through the same
 * trap entry), and the two are compared: pc, the 31 registers and their ready tags (cycle and
 * class of the producer), cycles, instret, the stall cycles of every {@link TimingClass}, control
 * and L1I-miss cycles, halt reason, exit code, fault, and the trap CSRs; the bytes of every memory
 * region every {@code memoryEvery} steps and at the end.
 *
 * <p>Thread-safety: not thread-safe; the harts and memories belong to the calling thread.
 */
final class EngineDifferential {
    private EngineDifferential() {
    }

    /**
     * What a side-by-side run found.
     *
     * @param steps        translator steps compared (blocks and interpreted instructions)
     * @param instructions instructions retired by each side
     * @param translated   of those, retired inside translated blocks
     * @param mismatch     the first difference (where and what), or null when none
     */
    record Result(long steps, long instructions, long translated, String mismatch) {
    }

    /**
     * Runs both harts to {@code maxInstret} or their halt, comparing after every step.
     *
     * @param ref         the reference hart (its engine is set to the interpreter)
     * @param tr          the hart under test (its engine is set to the translator), in the same
     *                    state as {@code ref} and over a memory with the same regions and bytes
     * @param maxInstret  absolute retired-instruction count to stop at
     * @param memoryEvery compare memory bytes every this many steps (at least 1), and at the end
     * @return the counts and the first mismatch, if any
     */
    static Result run(final Hart ref, final Hart tr, final long maxInstret, final int memoryEvery) {
        return run(ref, tr, maxInstret, memoryEvery, false);
    }

    /**
     * As {@link #run(Hart, Hart, long, int)}; with {@code chained}, a block that loops back to its
     * own start runs all its passes in one step (the translator's loop code is compared at the
     * loop's exit), else one pass a step.
     */
    static Result run(final Hart ref, final Hart tr, final long maxInstret, final int memoryEvery, final boolean chained) {
        ref.setEngine(Hart.Engine.INTERP);
        tr.setEngine(Hart.Engine.TRANSLATE);
        ref.setStopAfterTrap(true);
        tr.setStopAfterTrap(true);
        tr.dispatch.stepBlocks = true;
        tr.dispatch.chainInSteps = chained;
        tr.dispatch.translateAfter = 1; // translate at the first entry: the most code compared
        long steps = 0;
        String mismatch = compare(ref, tr, true);
        try {
            while (mismatch == null && !tr.halted() && tr.instret() < maxInstret) {
                final long pcBefore = tr.pc();
                tr.run(maxInstret);
                final boolean trapped = tr.takeTrapped();
                ref.run(trapped ? tr.instret() + 1 : tr.instret());
                ref.takeTrapped();
                steps++;
                mismatch = compare(ref, tr, steps % memoryEvery == 0);
                if (mismatch != null) {
                    mismatch = String.format(Locale.ROOT, "step %d (from pc 0x%x, instret %d): %s", steps, pcBefore,
                        tr.instret(), mismatch);
                }
            }
            if (mismatch == null) {
                mismatch = compare(ref, tr, true);
            }
        } finally {
            tr.dispatch.stepBlocks = false;
            tr.dispatch.chainInSteps = false;
            ref.setStopAfterTrap(false);
            tr.setStopAfterTrap(false);
        }
        return new Result(steps, tr.instret(), tr.translatedInstructions(), mismatch);
    }

    /** @return the first difference between the harts, or null */
    static String compare(final Hart a, final Hart b, final boolean memory) {
        if (a.pc() != b.pc()) {
            return diff("pc", a.pc(), b.pc());
        }
        for (int r = 1; r < 32; r++) {
            if (a.x[r] != b.x[r]) {
                return diff("x" + r, a.x[r], b.x[r]);
            }
            if (a.x[Hart.READY + r] != b.x[Hart.READY + r]) {
                return diff("ready tag of x" + r, a.x[Hart.READY + r], b.x[Hart.READY + r]);
            }
        }
        if (a.cycles() != b.cycles()) {
            return diff("cycles", a.cycles(), b.cycles());
        }
        if (a.instret() != b.instret()) {
            return diff("instret", a.instret(), b.instret());
        }
        for (final TimingClass c : TimingClass.values()) {
            if (a.stallCycles(c) != b.stallCycles(c)) {
                return diff("stall cycles of " + c, a.stallCycles(c), b.stallCycles(c));
            }
        }
        if (a.controlPenaltyCycles() != b.controlPenaltyCycles()) {
            return diff("control cycles", a.controlPenaltyCycles(), b.controlPenaltyCycles());
        }
        if (a.fetchStallCycles() != b.fetchStallCycles()) {
            return diff("L1I-miss cycles", a.fetchStallCycles(), b.fetchStallCycles());
        }
        if (a.haltReason() != b.haltReason() || a.exitCode() != b.exitCode() || !Objects.equals(a.fault(), b.fault())) {
            return "halt: interp " + a.haltReason() + "/" + a.exitCode() + "/" + a.fault() + ", translate " + b.haltReason()
                + "/" + b.exitCode() + "/" + b.fault();
        }
        if (a.mcause() != b.mcause() || a.mepc() != b.mepc() || a.mtval() != b.mtval()) {
            return "trap CSRs: interp mcause " + a.mcause() + " mepc 0x" + Long.toHexString(a.mepc()) + ", translate mcause "
                + b.mcause() + " mepc 0x" + Long.toHexString(b.mepc());
        }
        if (memory) {
            final List<MemoryRegion> ra = a.memory().regions();
            final List<MemoryRegion> rb = b.memory().regions();
            for (int i = 0; i < ra.size(); i++) {
                final int at = Arrays.mismatch(ra.get(i).bytes, rb.get(i).bytes);
                if (at >= 0) {
                    return String.format(Locale.ROOT, "memory at 0x%x: interp 0x%02x, translate 0x%02x", ra.get(i).base + at,
                        ra.get(i).bytes[at], rb.get(i).bytes[at]);
                }
            }
        }
        return null;
    }

    private static String diff(final String what, final long interp, final long translate) {
        return String.format(Locale.ROOT, "%s: interp %d (0x%x), translate %d (0x%x)", what, interp, interp, translate, translate);
    }
}
