package dev.nicsim.riscv;

/**
 * The operations that {@link BlockTranslator}'s code calls, one small static method per ALU and
 * multiply op (so the JIT inlines each at its call site): each computes what {@link Hart}'s
 * interpreter computes for the op, from rs1's value {@code a}, rs2's value {@code b} and the
 * decoded immediate ("The RISC-V Instruction Set Manual" Volume I 20191213, chapters 2, 5 and 7;
 * registers hold XLEN values sign-extended to 64 bits, and the decoder maps RV32's forms to these).
 *
 * <p>Thread-safety: stateless.
 */
final class BlockOps {
    private BlockOps() {
    }

    static long addi(final long a, final long b, final long imm) { return a + imm; }
    static long slti(final long a, final long b, final long imm) { return a < imm ? 1 : 0; }
    static long sltiu(final long a, final long b, final long imm) { return a + Long.MIN_VALUE < imm + Long.MIN_VALUE ? 1 : 0; }
    static long xori(final long a, final long b, final long imm) { return a ^ imm; }
    static long ori(final long a, final long b, final long imm) { return a | imm; }
    static long andi(final long a, final long b, final long imm) { return a & imm; }
    static long slli(final long a, final long b, final long imm) { return a << imm; }
    static long srli(final long a, final long b, final long imm) { return a >>> imm; }
    static long srai(final long a, final long b, final long imm) { return a >> imm; }
    static long add(final long a, final long b, final long imm) { return a + b; }
    static long sub(final long a, final long b, final long imm) { return a - b; }
    static long sll(final long a, final long b, final long imm) { return a << b; }
    static long slt(final long a, final long b, final long imm) { return a < b ? 1 : 0; }
    static long sltu(final long a, final long b, final long imm) { return a + Long.MIN_VALUE < b + Long.MIN_VALUE ? 1 : 0; }
    static long xor(final long a, final long b, final long imm) { return a ^ b; }
    static long srl(final long a, final long b, final long imm) { return a >>> b; }
    static long sra(final long a, final long b, final long imm) { return a >> b; }
    static long or(final long a, final long b, final long imm) { return a | b; }
    static long and(final long a, final long b, final long imm) { return a & b; }
    static long addiw(final long a, final long b, final long imm) { return (int) (a + imm); }
    static long slliw(final long a, final long b, final long imm) { return (int) a << imm; }
    static long srliw(final long a, final long b, final long imm) { return (int) a >>> imm; }
    static long sraiw(final long a, final long b, final long imm) { return (int) a >> imm; }
    static long addw(final long a, final long b, final long imm) { return (int) (a + b); }
    static long subw(final long a, final long b, final long imm) { return (int) (a - b); }
    static long sllw(final long a, final long b, final long imm) { return (int) a << (int) b; }
    static long srlw(final long a, final long b, final long imm) { return (int) a >>> (int) b; }
    static long sraw(final long a, final long b, final long imm) { return (int) a >> (int) b; }
    static long mul(final long a, final long b, final long imm) { return a * b; }
    static long mulh(final long a, final long b, final long imm) { return Math.multiplyHigh(a, b); }
    static long mulhsu(final long a, final long b, final long imm) { return Math.multiplyHigh(a, b) + ((b >> 63) & a); }
    static long mulhu(final long a, final long b, final long imm) { return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a); }
    static long mulw(final long a, final long b, final long imm) { return (int) a * (int) b; }
    static long mulh32(final long a, final long b, final long imm) { return (int) ((a * b) >> 32); }
    static long mulhsu32(final long a, final long b, final long imm) { return (int) ((a * (b & 0xffffffffL)) >> 32); }
    static long mulhu32(final long a, final long b, final long imm) { return (int) (((a & 0xffffffffL) * (b & 0xffffffffL)) >>> 32); }

    /**
     * The 8 bytes at {@code o} of a region's array, little-endian (the interpreter's fast-path read).
     *
     * @param bytes the region's bytes
     * @param o     offset, 0 .. length - 8
     * @return the value
     */
    static long readLong(final byte[] bytes, final int o) {
        return (long) MemoryRegion.LONG.get(bytes, o);
    }

    /**
     * A load from a region timed by a cache hierarchy, as the interpreter's fast path times it: an
     * access to the thread's last L1D line is a hit counted without a lookup, else the hierarchy is
     * asked ({@link MemoryHierarchy#extraCycles}).
     *
     * @param dreg the region (with a hierarchy)
     * @param a    the address
     * @param sh   64 - 8 * the load's size
     * @param t    the issue cycle
     * @return the extra cycles shifted left by 4 (to add to a ready tag)
     */
    static long cachedLoadExtra(final MemoryRegion dreg, final long a, final int sh, final long t) {
        final MemoryHierarchy mh = dreg.hierarchy;
        final int cur = mh.current;
        if (a >>> mh.l1dLineShift == mh.lastL1dLine[cur]) {
            mh.servedLoads[cur * MemoryHierarchy.LEVELS]++;
            return 0;
        }
        return (long) mh.extraCycles(a, 8 - (sh >>> 3), false, t) << 4;
    }
}
