package dev.nicsim.riscv;

/**
 * A hart's translator engine ({@link Hart.Engine#TRANSLATE}): the dispatch loop that runs the
 * translated blocks of its pages ({@link BlockTranslator}) and hands the rest to the interpreter.
 *
 * <p>At each pc inside the current fetch window it runs the page's translated block when the whole
 * block fits the instruction budget, else a few instructions of the interpreter. The state after
 * each step is the interpreter's after the same instructions (register values and ready tags,
 * cycles, stalls, predictor, caches): a block runs only inside one fetch window (so the interpreter
 * would not look the L1I up inside it), and hands any instruction whose outcome is not the fast
 * path's (a load or store the fast path does not serve, a store to a page with decoded code, an
 * operand stall of a thread that yields on stalls) back to the interpreter before touching any
 * state for it.
 *
 * <p>Under a {@link BoundedRun} (a thread of an interleaving core while the others cannot issue)
 * nothing issues at or after {@link BoundedRun#issueLimit}: a block runs only when its last instruction
 * issues before it ({@link TranslatedBlock#issueSpan}: a yielding thread's block issues at its
 * occupancies), and the interpreter runs one instruction per call, each begun before it.
 *
 * <p>Thread-safety: not thread-safe; belongs to one hart.
 */
final class BlockDispatch {
    /** Instructions the dispatch loop hands to the interpreter at a time. */
    private static final int INTERPRET_RUN = 8;

    private final Hart h;
    /**
     * Whether {@link #run} returns after each step (one block, or one instruction of the
     * interpreter): the differential harness ({@link EngineDifferential}) compares there.
     */
    boolean stepBlocks;
    /** With {@link #stepBlocks}: a block that loops to its own start may still run several passes in a step. */
    boolean chainInSteps;
    /**
     * Entries into a block start before it is translated (the interpreter runs the first ones):
     * code that runs a few times costs no class and no JIT compile. At least 1.
     */
    int translateAfter = translateAfterProperty();
    /** Instructions retired inside translated blocks. */
    long translatedInstret;

    /**
     * @param h the hart it runs
     */
    BlockDispatch(final Hart h) {
        this.h = h;
    }

    /**
     * The default of {@link #translateAfter}: the system property {@code nicsim.riscv.translateAfter}
     * (an integer, at least 1; 1 translates every block at its first entry, as the differential
     * harness does), else 1000.
     *
     * @return entries before translation, at least 1
     * @throws IllegalArgumentException when the property is not an integer of at least 1
     */
    static int translateAfterProperty() {
        final String v = System.getProperty("nicsim.riscv.translateAfter");
        if (v == null) {
            return 1000;
        }
        try {
            final int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("nicsim.riscv.translateAfter: expected an integer of at least 1, got '" + v + "'");
    }

    /**
     * Runs until the hart's instret reaches {@code maxInstret}, it halts, it yields its slot, or
     * (with {@link #stepBlocks}) after one step.
     *
     * @param maxInstret absolute retired-instruction count to stop at
     */
    void run(final long maxInstret) {
        if (h.haltReason != Hart.HaltReason.NONE) {
            return;
        }
        final FetchUnit f = h.fetch;
        f.altBytes = 0; // as the interpreter starts: no other line of a pair yet
        h.yielded = false;
        while (h.instret < maxInstret && h.haltReason == Hart.HaltReason.NONE && h.cycles < h.bounded.issueLimit) {
            final long p = h.pc;
            if (!f.inWindow(p)) {
                if (f.inOtherLine(p)) {
                    f.swapLines(); // the interpreter's ping-pong entry into the other line of the pair
                } else if (!interpretSome(maxInstret) || stepBlocks) {
                    return;
                } else {
                    continue;
                }
            }
            final DecodedPage page = f.page;
            final int slot = (int) (p - page.base) >>> 1;
            TranslatedBlock[] blocks = page.blocks;
            if (blocks == null) {
                blocks = new TranslatedBlock[DecodedPage.PAGE_BYTES / 2];
                page.blocks = blocks;
            }
            TranslatedBlock b = blocks[slot];
            if (b == null || b.key != h.translationKey) {
                // another memory's hart translated the same code already (every NIC loads the same
                // firmware): its block at once, else count entries first
                b = translateAfter <= 1 ? BlockTranslator.translate(h, page, slot) : BlockTranslator.shared(h, page, slot);
                blocks[slot] = b;
            } else if (b instanceof TranslatedBlock.Cold c && ++c.entries >= translateAfter) {
                b = BlockTranslator.translate(h, page, slot);
                blocks[slot] = b;
            }
            // (a bounded run's yielding thread issues block instructions at the block's start cycle
            // plus its occupancies: anything else ends the block before the instruction)
            if (b.length == 0 || h.instret + b.length > maxInstret || h.cycles + b.issueSpan >= h.bounded.issueLimit) {
                if (!interpretSome(maxInstret) || stepBlocks) {
                    return;
                }
                continue;
            }
            // a block that loops back to its own start runs again while the budget holds it (not
            // when the harness compares after every block)
            final long r = b.run(h, stepBlocks && !chainInSteps ? b.length : maxInstret - h.instret);
            translatedInstret += r >>> 1;
            if (h.haltReason != Hart.HaltReason.NONE) {
                // the store hook asked to halt (tohost): the block's last instruction, a store
                // that retired, issued its occupancy before the block's exit cycle
                h.bounded.haltStepCycle = h.cycles - ((h.timing[Isa.SD] >>> 32) & 0xffff);
                h.bounded.haltStepRetired = true;
                break;
            }
            if (h.yielded) {
                break; // the block gave the slot away (operand stall, L1I miss), as the interpreter would have
            }
            if ((r & 1) != 0) {
                if (!interpretSome(maxInstret)) {
                    return; // the block handed an instruction back, and the interpreter yielded or stopped on it
                }
            }
            if (stepBlocks) {
                break;
            }
        }
        f.creditHits();
    }

    /**
     * Up to {@link #INTERPRET_RUN} instructions of the interpreter (one when the harness compares
     * each step): what the translator leaves to the interpreter tends to come in runs (calls into
     * runtime code).
     *
     * @return whether the dispatch loop may go on: false when the hart yielded its slot on a stall,
     *         stopped after a trap, or halted
     */
    private boolean interpretSome(final long maxInstret) {
        final BoundedRun br = h.bounded;
        if (br.issueLimit != Long.MAX_VALUE) {
            // a bounded run: one instruction per interpreter call, each begun before the bound
            return br.steps(maxInstret, br.issueLimit, stepBlocks ? 1 : INTERPRET_RUN, true);
        }
        h.yielded = false;
        h.interpret(stepBlocks ? h.instret + 1 : Math.min(maxInstret, h.instret + INTERPRET_RUN), true);
        if (h.yielded || h.haltReason != Hart.HaltReason.NONE) {
            return false;
        }
        return !(h.trapped && h.stopAfterTrap);
    }
}
