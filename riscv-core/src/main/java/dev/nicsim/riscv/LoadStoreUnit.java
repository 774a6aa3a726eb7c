package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;

/**
 * A hart's loads, stores and AMOs off the interpreter's fast path: accesses outside the cached
 * fast data region, to a region with latency, or misaligned under a model that does not perform
 * misaligned accesses for free (Volume I §2.6, {@link CycleModel#misaligned()}), and the A
 * extension's LR/SC and AMOs (Volume I chapter 8: misaligned ones always raise address-misaligned;
 * an SC invalidates the hart's reservation whether it succeeds or fails). It also holds the per-op
 * access bits the fast path reads from the op's timing word ({@link #accessBits}).
 *
 * <p>Thread-safety: not thread-safe; belongs to one hart.
 */
final class LoadStoreUnit {
    /** Access bits: shift that cuts an 8-byte read to the load's size (64 - 8 * size). */
    static final int ACCESS_SHIFT_MASK = 63;
    /** Access bit: zero-extending load. */
    static final int ACCESS_UNSIGNED = 64;
    /** Access bit: sub-word load (timing class LOAD_SUBWORD). */
    static final int ACCESS_SUBWORD = 128;
    /** Access bits from here on: the alignment mask (size - 1) the fast path checks. */
    static final int ACCESS_ALIGN_SHIFT = 8;

    private final Hart hart;
    private final Memory memory;
    private final long[] x;
    /**
     * Per load and store op: {@code shift | unsigned | subword | alignMask << 8} (see the
     * {@code ACCESS_} constants); the align mask is size - 1 when the model does not perform
     * misaligned accesses for free, else 0 (no check on the fast path).
     */
    private final int[] access = new int[OP_COUNT];
    private final CycleModel.Misaligned misalignedPolicy;
    private final boolean misalignedTrap;
    private final int misalignedExtraCycles;
    /** Extra cycles of the last slow access (misaligned, region latency), for the caller's timing. */
    int slowExtra;
    /** The exception the last {@link #amo} raised (-1: none), and its mtval. */
    int pendingCause = -1;
    long pendingTval;

    /**
     * Creates the unit of a hart.
     *
     * @param hart  the hart (its registers, data region, reservation and store hook)
     * @param model the cycle model (its misaligned-access rule)
     */
    LoadStoreUnit(final Hart hart, final CycleModel model) {
        this.hart = hart;
        this.memory = hart.memory();
        this.x = hart.x;
        misalignedPolicy = model.misaligned();
        misalignedTrap = misalignedPolicy == CycleModel.Misaligned.TRAP;
        misalignedExtraCycles = misalignedPolicy == CycleModel.Misaligned.EXTRA_CYCLES ? model.misalignedExtraCycles() : 0;
        final int[] accessOps = {LB, LH, LW, LD, LBU, LHU, LWU, SB, SH, SW, SD};
        final int[] sizes = {1, 2, 4, 8, 1, 2, 4, 1, 2, 4, 8};
        for (int i = 0; i < accessOps.length; i++) {
            final int op = accessOps[i];
            access[op] = (64 - 8 * sizes[i]) | (op == LBU || op == LHU || op == LWU ? ACCESS_UNSIGNED : 0)
                | (Isa.timingOf(op) == TimingClass.LOAD_SUBWORD ? ACCESS_SUBWORD : 0)
                | (misalignedPolicy == CycleModel.Misaligned.PERFORM ? 0 : sizes[i] - 1) << ACCESS_ALIGN_SHIFT;
        }
    }

    /**
     * @param op an op
     * @return its access bits (0 for an op that is not a load or store)
     */
    int accessBits(final int op) {
        return access[op];
    }

    /**
     * A load off the fast path: reads into rd and adds the region's extra cycles to rd's ready tag.
     *
     * @param a  the address
     * @param op the load op
     * @param rd the destination register (or the sink)
     * @param t  the issue cycle
     * @return -1 done, {@link Hart#CAUSE_LOAD_ACCESS} or {@link Hart#CAUSE_LOAD_MISALIGNED} (the
     *         caller sets mtval)
     */
    int load(final long a, final int op, final int rd, final long t) {
        final int acc = access[op];
        final int sh = acc & ACCESS_SHIFT_MASK;
        final int size = (64 - sh) >> 3;
        if (misaligned(a, size)) {
            return Hart.CAUSE_LOAD_MISALIGNED;
        }
        final MemoryRegion r = region(a, size);
        if (r == null) {
            return Hart.CAUSE_LOAD_ACCESS;
        }
        final int extra = slowExtra + (r.fastLast1 >= 0 ? 0 : r.extraCycles(a, size, false, t));
        x[Hart.READY + rd] += (long) extra << 4;
        final long v = r.get((int) (a - r.base), size);
        x[rd] = (acc & ACCESS_UNSIGNED) != 0 ? (v << sh) >>> sh : v;
        return -1;
    }

    /**
     * A store off the fast path (extra cycles are left in {@link #slowExtra}, for the caller's
     * issue occupancy).
     *
     * @param a    the address
     * @param size bytes, 1, 2, 4 or 8
     * @param v    the value (its low {@code size} bytes are stored)
     * @return -1 done, {@link Hart#STOP} (the store asked the hart to halt: tohost),
     *         {@link Hart#CAUSE_STORE_ACCESS} or {@link Hart#CAUSE_STORE_MISALIGNED} (the caller sets mtval)
     */
    int store(final long a, final int size, final long v) {
        if (misaligned(a, size)) {
            return Hart.CAUSE_STORE_MISALIGNED;
        }
        final MemoryRegion r = region(a, size);
        if (r == null) {
            return Hart.CAUSE_STORE_ACCESS;
        }
        final long o = a - r.base;
        r.put((int) o, size, v);
        return storeHook(r, o, size, a) ? Hart.STOP : -1;
    }

    /**
     * The model's rule for a load or store that is not naturally aligned (Volume I §2.6).
     *
     * @return {@code true}: raise address-misaligned; {@code false}: perform it, with
     *         {@link #slowExtra} set to its extra cycles (0 when aligned or free)
     */
    private boolean misaligned(final long a, final int size) {
        slowExtra = 0;
        if ((a & (size - 1)) == 0 || misalignedPolicy == CycleModel.Misaligned.PERFORM) {
            return false;
        }
        slowExtra = misalignedExtraCycles;
        return misalignedTrap;
    }

    /**
     * @return the region holding the access (remembered as the hart's fast data region when it has
     *         no latency or a hierarchy's), or null
     */
    private MemoryRegion region(final long a, final int size) {
        final MemoryRegion r = memory.find(a, size);
        if (r != null && r.storeLast1 >= 0) {
            hart.dataRegion = r;
        }
        return r;
    }

    /**
     * An LR, SC or AMO: the region's extra cycles are left in {@link #slowExtra}; an exception is
     * left in {@link #pendingCause} and {@link #pendingTval}.
     *
     * @param op  the op (W or D form)
     * @param a   the address (rs1's value)
     * @param src rs2's value
     * @param t   the issue cycle
     * @return the value for rd: the old memory value, or SC's 0 (stored) / 1 (failed)
     */
    long amo(final int op, final long a, final long src, final long t) {
        final boolean dbl = op >= LR_D;
        final int size = dbl ? 8 : 4;
        final int base = dbl ? op - (LR_D - LR_W) : op;
        if ((a & (size - 1)) != 0) {
            pendingCause = base == LR_W ? Hart.CAUSE_LOAD_MISALIGNED : Hart.CAUSE_STORE_MISALIGNED;
            pendingTval = a;
            return 0;
        }
        final MemoryRegion r = region(a, size);
        if (r == null) {
            pendingCause = base == LR_W ? Hart.CAUSE_LOAD_ACCESS : Hart.CAUSE_STORE_ACCESS;
            pendingTval = a;
            return 0;
        }
        slowExtra = r.fastLast1 >= 0 ? 0 : r.extraCycles(a, size, false, t);
        final int o = (int) (a - r.base);
        final long old = r.get(o, size);
        if (base == LR_W) {
            hart.reservation = a;
            // the reserved bytes' page gets a decoded page, so every hart's store to it reaches storeHook
            r.page(o);
            memory.addReserver(hart);
            return old;
        }
        if (base == SC_W) {
            final boolean reserved = hart.reservation == a;
            hart.reservation = -1;
            if (!reserved) {
                return 1;
            }
            r.put(o, size, src);
            storeHookAfterAmo(r, o, size, a);
            return 0;
        }
        r.put(o, size, Alu.amoValue(base, old, dbl ? src : (int) src, dbl));
        storeHookAfterAmo(r, o, size, a);
        return old;
    }

    private void storeHookAfterAmo(final MemoryRegion r, final int o, final int size, final long a) {
        if (r.pages[o >>> 12] != null) {
            storeHook(r, o, size, a); // a halt request leaves the hart's halt reason set; its loop stops after retiring
        }
    }

    /**
     * A translated block's store to a page with decoded code or the tohost watch: the
     * interpreter's store hook.
     *
     * @return whether the block must end after the store: a halt was requested, or the store
     *         dropped translated blocks (the block itself may be one)
     */
    boolean storeFromBlock(final MemoryRegion r, final long o, final int size, final long a) {
        r.droppedBlocks = false;
        final boolean halt = storeHook(r, o, size, a);
        return halt || r.droppedBlocks;
    }

    /**
     * After a store to a page with decoded code or the tohost watch: drops the decoded
     * instructions it overwrote, breaks other harts' reservations on its bytes, and passes a store
     * to the tohost word to the environment.
     *
     * @return whether the environment asked the hart to halt
     */
    boolean storeHook(final MemoryRegion r, final long o, final int size, final long a) {
        r.invalidate(o, size);
        memory.breakReservations(a, size);
        final long w = memory.watchAddress();
        if (a < w + 8 && w < a + size && hart.environment != null) {
            final MemoryRegion wr = memory.find(w, 8);
            hart.fetch.leavePair();
            if (wr != null && hart.environment.toHost(hart, wr.get((int) (w - wr.base), 8))) {
                if (hart.haltReason == Hart.HaltReason.NONE) {
                    hart.haltReason = Hart.HaltReason.EXIT;
                }
                return true;
            }
        }
        return false;
    }
}
