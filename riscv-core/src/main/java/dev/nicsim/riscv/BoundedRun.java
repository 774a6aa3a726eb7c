package dev.nicsim.riscv;

/**
 * A hart's runs bounded by a cycle: what a {@link Core} hands a thread while the other threads of
 * the core cannot take a slot before that cycle (docs/riscv-core.md, "Threads that share a
 * pipeline"). Nothing issues at or after the bound. The interpreter engine runs one instruction
 * per call of the interpreter loop (its loop has no cycle test); the translator's dispatch loop
 * ({@link BlockDispatch}) reads {@link #issueLimit} and runs a block only when the block's last
 * instruction issues before it.
 *
 * <p>Thread-safety: not thread-safe; belongs to one hart.
 */
final class BoundedRun {
    private final Hart h;
    /**
     * The cycle at or after which nothing issues in the current bounded run; {@link Long#MAX_VALUE}
     * outside one (read by {@link BlockDispatch} and by translated blocks that loop to their start).
     */
    long issueLimit = Long.MAX_VALUE;
    /** After a bounded run that halted: the cycle at which the halting step (one instruction, with any trap entry) began. */
    long haltStepCycle;
    /** After a bounded run that halted: whether the halting step retired its instruction (an exit ecall does, a fault does not). */
    boolean haltStepRetired;

    /**
     * @param h the hart it runs
     */
    BoundedRun(final Hart h) {
        this.h = h;
    }

    /**
     * As {@link Hart#run}, and issues nothing at or after {@code cycleLimit}. The hart must yield on
     * stalls (a thread of an interleaving core), so nothing but its issue occupancies and control
     * penalties moves its cycle between issues without ending the run. Clears {@link Hart#yielded}
     * first; on a halt sets {@link #haltStepCycle} and {@link #haltStepRetired}.
     *
     * @param maxInstret absolute retired-instruction count to stop at
     * @param cycleLimit first cycle at which no instruction may issue
     * @throws IllegalStateException when the hart does not yield on stalls
     */
    void run(final long maxInstret, final long cycleLimit) {
        if (!h.yieldOnStall) {
            throw new IllegalStateException("a bounded run needs a hart that yields on stalls");
        }
        h.yielded = false;
        if (h.engine() == Hart.Engine.TRANSLATE) {
            issueLimit = cycleLimit;
            try {
                h.dispatch.run(maxInstret);
            } finally {
                issueLimit = Long.MAX_VALUE;
            }
        } else {
            steps(maxInstret, cycleLimit, Long.MAX_VALUE, false);
        }
    }

    /**
     * Interpreter steps of one instruction each (with any trap entry it causes), each beginning
     * before {@code cycleLimit}: what a core's instruction-by-instruction picks of this thread
     * would run. On a halt sets {@link #haltStepCycle} and {@link #haltStepRetired}.
     *
     * @param maxInstret absolute retired-instruction count to stop at
     * @param cycleLimit first cycle at which no step may begin
     * @param maxSteps   most steps
     * @param keepPair   keep the L1I line pair for the first step (see {@link Hart#interpret})
     * @return false when the hart yielded, halted or stopped after a trap; true when it reached a limit
     */
    boolean steps(final long maxInstret, final long cycleLimit, final long maxSteps, final boolean keepPair) {
        boolean keep = keepPair;
        for (long k = 0; k < maxSteps && h.instret < maxInstret && h.cycles < cycleLimit; k++) {
            final long c = h.cycles;
            final long n = h.instret;
            h.yielded = false;
            h.interpret(n + 1, keep);
            keep = true;
            if (h.haltReason != Hart.HaltReason.NONE) {
                haltStepCycle = c;
                haltStepRetired = h.instret > n;
                return false;
            }
            if (h.yielded || h.trapped && h.stopAfterTrap) {
                return false;
            }
        }
        return true;
    }
}
