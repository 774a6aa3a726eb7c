package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;

/**
 * The integer operations the interpreter ({@link Hart}) and the translated blocks
 * ({@link BlockTranslator}) share beyond one-line arithmetic: divide and remainder, their
 * data-dependent latency, the Zbb and Zbs operations and the AMOs' read-modify-write values.
 * Registers hold XLEN values sign-extended to 64 bits ("The RISC-V Instruction Set Manual"
 * Volume I 20191213).
 *
 * <p>Thread-safety: stateless.
 */
final class Alu {
    private Alu() {
    }

    /**
     * Divide and remainder (Volume I §7.2, including Table 7.1: division by zero gives all ones
     * for the quotient and the dividend for the remainder; overflow gives the dividend and 0).
     *
     * @param op DIV, DIVU, REM, REMU or their W forms
     * @param a  rs1's value
     * @param b  rs2's value
     * @return the value for rd
     */
    static long divide(final int op, final long a, final long b) {
        switch (op) {
            case DIV: return b == 0 ? -1 : a / b;
            case DIVU: return b == 0 ? -1 : Long.divideUnsigned(a, b);
            case REM: return b == 0 ? a : a % b;
            case REMU: return b == 0 ? a : Long.remainderUnsigned(a, b);
            case DIVW: {
                final int ai = (int) a;
                final int bi = (int) b;
                return bi == 0 ? -1 : ai / bi;
            }
            case DIVUW: {
                final int bi = (int) b;
                return bi == 0 ? -1 : Integer.divideUnsigned((int) a, bi);
            }
            case REMW: {
                final int bi = (int) b;
                return bi == 0 ? (int) a : (int) a % bi;
            }
            default: { // REMUW
                final int bi = (int) b;
                return bi == 0 ? (int) a : Integer.remainderUnsigned((int) a, bi);
            }
        }
    }

    /**
     * Data-dependent divide latency of a 1-bit-per-cycle divider with early out (E31 manual §3.3:
     * "between a 2-cycle and 33-cycle result latency, depending on the operand values"): one
     * cycle per quotient bit (the dividend's significant bits beyond the divisor's) plus one,
     * from 2 (divisor larger than dividend, or zero) to width + 1. The per-bit rule is our model.
     *
     * @param op a divide or remainder op
     * @param a  rs1's value
     * @param b  rs2's value
     * @return result latency in cycles, 2 to 65
     */
    static int divCycles(final int op, final long a, final long b) {
        final boolean word = op == DIVW || op == DIVUW || op == REMW || op == REMUW;
        final boolean signed = op == DIV || op == REM || op == DIVW || op == REMW;
        final int width = word ? 32 : 64;
        final long ua = word ? (signed ? Math.abs((long) (int) a) : a & 0xffffffffL) : (signed ? Math.abs(a) : a);
        final long ub = word ? (signed ? Math.abs((long) (int) b) : b & 0xffffffffL) : (signed ? Math.abs(b) : b);
        if (ub == 0) {
            return 2;
        }
        final int q = Math.max(0, Long.numberOfLeadingZeros(ub) - Long.numberOfLeadingZeros(ua) + 1);
        return Math.max(2, Math.min(width + 1, q + 1));
    }

    /**
     * The Zbb and Zbs operations ("RISC-V Bit-Manipulation ISA-extensions" 1.0.0, chapter 3, each
     * instruction's "Operation"). RV32's clz, ctz, cpop, rol, ror and rori execute as the W forms,
     * and results that may set bit 31 are sign-extended.
     *
     * @param op   a Zbb or Zbs op
     * @param a    rs1's value
     * @param b    rs2's value (0 for the unary and immediate forms)
     * @param imm  shift amount of the immediate forms, 0 to XLEN - 1
     * @param xlen 32 or 64
     * @return the value for rd
     */
    static long bitManipulation(final int op, final long a, final long b, final int imm, final int xlen) {
        final int index = (int) b & (xlen - 1);
        final int xs = 64 - xlen;
        switch (op) {
            case ANDN: return a & ~b;
            case ORN: return a | ~b;
            case XNOR: return ~(a ^ b);
            case CLZ: return Long.numberOfLeadingZeros(a);
            case CLZW: return Integer.numberOfLeadingZeros((int) a);
            case CTZ: return Long.numberOfTrailingZeros(a);
            case CTZW: return Integer.numberOfTrailingZeros((int) a);
            case CPOP: return Long.bitCount(a);
            case CPOPW: return Integer.bitCount((int) a);
            case MAX: return Math.max(a, b);
            case MAXU: return Long.compareUnsigned(a, b) >= 0 ? a : b;
            case MIN: return Math.min(a, b);
            case MINU: return Long.compareUnsigned(a, b) <= 0 ? a : b;
            case SEXT_B: return (byte) a;
            case SEXT_H: return (short) a;
            case ZEXT_H: return a & 0xffff;
            case ROL: return Long.rotateLeft(a, (int) b);
            case ROLW: return Integer.rotateLeft((int) a, (int) b);
            case ROR: return Long.rotateRight(a, (int) b);
            case RORW: return Integer.rotateRight((int) a, (int) b);
            case RORI: return Long.rotateRight(a, imm);
            case RORIW: return Integer.rotateRight((int) a, imm);
            case ORC_B: {
                long r = 0;
                for (int i = 0; i < 64; i += 8) {
                    if ((a >>> i & 0xff) != 0) {
                        r |= 0xffL << i;
                    }
                }
                return (r << xs) >> xs;
            }
            case REV8: return xlen == 64 ? Long.reverseBytes(a) : Integer.reverseBytes((int) a);
            case BCLR: return (a & ~(1L << index)) << xs >> xs;
            case BCLRI: return (a & ~(1L << imm)) << xs >> xs;
            case BEXT: return a >>> index & 1;
            case BEXTI: return a >>> imm & 1;
            case BINV: return (a ^ 1L << index) << xs >> xs;
            case BINVI: return (a ^ 1L << imm) << xs >> xs;
            case BSET: return (a | 1L << index) << xs >> xs;
            default: return (a | 1L << imm) << xs >> xs; // BSETI
        }
    }

    /**
     * The value an AMO writes (Volume I §8.4): the operation of {@code old} (the memory word, sign
     * extended from its size) and {@code s} (rs2's value, cut to the size for the W forms).
     *
     * @param base the op's W form (AMOSWAP_W .. AMOMAXU_W)
     * @param old  the loaded value
     * @param s    the source value
     * @param dbl  whether it is a D form (unsigned compares of the W forms use the low 32 bits)
     * @return the value to store
     */
    static long amoValue(final int base, final long old, final long s, final boolean dbl) {
        switch (base) {
            case AMOSWAP_W: return s;
            case AMOADD_W: return old + s;
            case AMOXOR_W: return old ^ s;
            case AMOAND_W: return old & s;
            case AMOOR_W: return old | s;
            case AMOMIN_W: return Math.min(old, s);
            case AMOMAX_W: return Math.max(old, s);
            case AMOMINU_W: return Long.compareUnsigned(dbl ? old : old & 0xffffffffL, dbl ? s : s & 0xffffffffL) < 0 ? old : s;
            default: return Long.compareUnsigned(dbl ? old : old & 0xffffffffL, dbl ? s : s & 0xffffffffL) > 0 ? old : s;
        }
    }
}
