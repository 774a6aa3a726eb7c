package dev.nicsim.riscv;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * Reads and writes of {@code long[]} elements without the bounds check, for the interpreter's
 * per-instruction accesses whose indexes are masked below the array's length by construction
 * (registers and ready tags: 5- or 6-bit fields into {@link Hart#x}, which holds 97; ops: 8 bits
 * into the per-op timing table, 256; decode slots: 11 bits into a page's 2,048; stall classes: 4
 * bits into the stall table, 16; the branch predictor's indexes, see {@link BranchPredictor}).
 * C2 cannot remove those checks itself (it does not know a field array's length); each costs a
 * reload of the spilled length, a compare and a branch.
 *
 * <p>Uses {@code sun.misc.Unsafe} (module jdk.unsupported, exported and open to every module, so
 * no {@code --add-exports} flag is needed, unlike Agrona's {@code UnsafeApi}, which reaches
 * {@code jdk.internal.misc}).
 *
 * <p>Thread-safety: stateless; the caller owns the arrays.
 */
final class Unchecked {
    private static final Unsafe UNSAFE;
    /** Byte offset of a {@code long[]}'s element 0. */
    private static final long LONG_ARRAY_BASE;

    static {
        try {
            final Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = (Unsafe) f.get(null);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LONG_ARRAY_BASE = UNSAFE.arrayBaseOffset(long[].class);
        if (UNSAFE.arrayIndexScale(long[].class) != 8) {
            throw new ExceptionInInitializerError("long[] elements are not 8 bytes apart");
        }
    }

    private Unchecked() {
    }

    /**
     * Reads {@code a[i]} without the bounds check.
     *
     * @param a array
     * @param i index, 0 .. a.length - 1 (not checked)
     * @return the element
     */
    static long at(final long[] a, final int i) {
        return UNSAFE.getLong(a, LONG_ARRAY_BASE + ((long) i << 3));
    }

    /**
     * Writes {@code a[i] = v} without the bounds check.
     *
     * @param a array
     * @param i index, 0 .. a.length - 1 (not checked)
     * @param v value
     */
    static void set(final long[] a, final int i, final long v) {
        UNSAFE.putLong(a, LONG_ARRAY_BASE + ((long) i << 3), v);
    }
}
