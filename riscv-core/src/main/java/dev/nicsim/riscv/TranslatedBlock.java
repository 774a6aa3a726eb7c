package dev.nicsim.riscv;

/**
 * A guest basic block translated to JVM bytecode by {@link BlockTranslator}: the code of its
 * instructions with their timing compiled in, run by {@link Hart}'s translator engine.
 *
 * <p>Thread-safety: immutable; it runs on the thread that owns the hart it is given.
 */
abstract class TranslatedBlock {
    /** The {@link Hart#translationKey} of the harts this code is valid for. */
    final String key;
    /** Instructions in the block, 0 for a pc whose first instruction is not translated. */
    final int length;
    /**
     * Cycles from the issue of the block's first instruction to that of its last when no operand
     * stall or L1I line entry moves them (the sum of the issue occupancies before the last): a
     * thread that yields on stalls issues them so, or leaves the block first.
     */
    final long issueSpan;

    /**
     * @param key       the translating hart's key
     * @param length    instructions, 0 to {@link BlockTranslator#MAX_INSTRUCTIONS}
     * @param issueSpan {@link #issueSpan}, cycles, at least 0
     */
    TranslatedBlock(final String key, final int length, final long issueSpan) {
        this.key = key;
        this.length = length;
        this.issueSpan = issueSpan;
    }

    /**
     * Runs the block from its first instruction: updates the hart's registers, ready tags, pc,
     * cycles, instret and counters as the interpreter would for the instructions it retires. It
     * stops early, before touching any state for it, at an instruction the fast path cannot do
     * (then the caller runs that one in the interpreter).
     *
     * <p>A block whose branch or jump leads back to its own start runs again, without leaving,
     * while another pass fits {@code room}: what the dispatch loop would do, as the block stays in
     * the same fetch window and nothing it does drops it.
     *
     * @param h    the hart, whose pc is the block's start and whose key is {@link #key}
     * @param room instructions the hart may still retire in this call, at least {@link #length}
     * @return instructions retired (0 to {@code room}) shifted left by one, plus 1 when it stopped
     *         before an instruction it hands to the interpreter
     */
    abstract long run(Hart h, long room);

    /** A block start not yet translated: it counts its entries ({@link BlockDispatch#translateAfter}). */
    static final class Cold extends TranslatedBlock {
        /** Entries so far. */
        int entries;

        Cold(final String key) {
            super(key, 0, 0);
        }

        @Override
        long run(final Hart h, final long room) {
            return 1;
        }
    }

    /** The block of a pc whose first instruction the translator leaves to the interpreter. */
    static final class Empty extends TranslatedBlock {
        Empty(final String key) {
            super(key, 0, 0);
        }

        @Override
        long run(final Hart h, final long room) {
            return 1;
        }
    }
}
