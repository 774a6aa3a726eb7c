package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.encB;
import static dev.nicsim.riscv.Isa.encI;
import static dev.nicsim.riscv.Isa.encJ;
import static dev.nicsim.riscv.Isa.encR;
import static dev.nicsim.riscv.Isa.encS;

/**
 * The C extension's expansion: each 16-bit instruction into the 32-bit instruction it stands for
 * ("The RISC-V Instruction Set Manual" Volume I 20191213, chapter 16, §16.8 RVC opcode map), so
 * {@link Isa}'s one decoder table serves both.
 *
 * <p>Thread-safety: stateless.
 */
final class Rvc {
    private Rvc() {
    }

    /**
     * Expands a 16-bit instruction into its 32-bit equivalent (Volume I §16.8, RVC opcode map).
     *
     * @param c    the 16-bit parcel
     * @param xlen 32 or 64 (selects c.jal/c.addiw, c.flw/c.ld, ...)
     * @return the 32-bit instruction, or 0 when the parcel is reserved, illegal or a
     *     floating-point instruction (F/D are not implemented)
     */
    static int expand(final int c, final int xlen) {
        final int q = c & 3;
        final int f3 = bits(c, 15, 13);
        final int rdp = bits(c, 4, 2) + 8;
        final int rs1p = bits(c, 9, 7) + 8;
        final int rd = bits(c, 11, 7);
        final int rs2 = bits(c, 6, 2);
        final boolean rv64 = xlen == 64;
        if (q == 0) {
            switch (f3) {
                case 0: {
                    final int imm = bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 | bit(c, 6) << 2 | bit(c, 5) << 3;
                    return imm == 0 ? 0 : encI(0x13, 0, rdp, 2, imm);
                }
                case 2:
                    return encI(0x03, 2, rdp, rs1p, bits(c, 12, 10) << 3 | bit(c, 6) << 2 | bit(c, 5) << 6);
                case 3:
                    return rv64 ? encI(0x03, 3, rdp, rs1p, bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6) : 0;
                case 6:
                    return encS(0x23, 2, rs1p, rdp, bits(c, 12, 10) << 3 | bit(c, 6) << 2 | bit(c, 5) << 6);
                case 7:
                    return rv64 ? encS(0x23, 3, rs1p, rdp, bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6) : 0;
                default:
                    return 0;
            }
        }
        if (q == 1) {
            final int imm6 = sext(bit(c, 12) << 5 | rs2, 6);
            switch (f3) {
                case 0:
                    return encI(0x13, 0, rd, rd, imm6);
                case 1:
                    if (rv64) {
                        return rd == 0 ? 0 : encI(0x1b, 0, rd, rd, imm6);
                    }
                    return encJ(1, cjImm(c));
                case 2:
                    return encI(0x13, 0, rd, 0, imm6);
                case 3:
                    if (rd == 2) {
                        final int imm = sext(bit(c, 12) << 9 | bit(c, 6) << 4 | bit(c, 5) << 6 | bits(c, 4, 3) << 7 | bit(c, 2) << 5, 10);
                        return imm == 0 ? 0 : encI(0x13, 0, 2, 2, imm);
                    }
                    return imm6 == 0 ? 0 : (imm6 << 12) | rd << 7 | 0x37;
                case 4: {
                    final int f2 = bits(c, 11, 10);
                    final int shamt = bit(c, 12) << 5 | rs2;
                    if (f2 == 0 || f2 == 1) {
                        if (!rv64 && shamt >= 32) {
                            return 0;
                        }
                        return encI(0x13, 5, rs1p, rs1p, shamt | (f2 == 1 ? 0x400 : 0));
                    }
                    if (f2 == 2) {
                        return encI(0x13, 7, rs1p, rs1p, imm6);
                    }
                    final int f = bits(c, 6, 5);
                    if (bit(c, 12) == 0) {
                        final int[] f3s = {0, 4, 6, 7};
                        return encR(0x33, f3s[f], f == 0 ? 0x20 : 0, rs1p, rs1p, rdp);
                    }
                    if (!rv64 || f >= 2) {
                        return 0;
                    }
                    return encR(0x3b, 0, f == 0 ? 0x20 : 0, rs1p, rs1p, rdp);
                }
                case 5:
                    return encJ(0, cjImm(c));
                case 6:
                case 7: {
                    final int off = sext(bit(c, 12) << 8 | bits(c, 11, 10) << 3 | bits(c, 6, 5) << 6 | bits(c, 4, 3) << 1 | bit(c, 2) << 5, 9);
                    return encB(f3 == 6 ? 0 : 1, rs1p, 0, off);
                }
                default:
                    return 0;
            }
        }
        if (q == 2) {
            switch (f3) {
                case 0: {
                    final int shamt = bit(c, 12) << 5 | rs2;
                    if (!rv64 && shamt >= 32) {
                        return 0;
                    }
                    return encI(0x13, 1, rd, rd, shamt);
                }
                case 2:
                    return rd == 0 ? 0 : encI(0x03, 2, rd, 2, bit(c, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6);
                case 3:
                    return !rv64 || rd == 0 ? 0 : encI(0x03, 3, rd, 2, bit(c, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6);
                case 4:
                    if (bit(c, 12) == 0) {
                        if (rs2 == 0) {
                            return rd == 0 ? 0 : encI(0x67, 0, 0, rd, 0);
                        }
                        return encR(0x33, 0, 0, rd, 0, rs2);
                    }
                    if (rs2 == 0) {
                        return rd == 0 ? 0x00100073 : encI(0x67, 0, 1, rd, 0);
                    }
                    return encR(0x33, 0, 0, rd, rd, rs2);
                case 6:
                    return encS(0x23, 2, 2, rs2, bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6);
                case 7:
                    return rv64 ? encS(0x23, 3, 2, rs2, bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6) : 0;
                default:
                    return 0;
            }
        }
        return 0;
    }

    private static int cjImm(final int c) {
        return sext(bit(c, 12) << 11 | bit(c, 11) << 4 | bits(c, 10, 9) << 8 | bit(c, 8) << 10 | bit(c, 7) << 6
            | bit(c, 6) << 7 | bits(c, 5, 3) << 1 | bit(c, 2) << 5, 12);
    }

    private static int bit(final int c, final int b) {
        return (c >>> b) & 1;
    }

    private static int bits(final int c, final int hi, final int lo) {
        return (c >>> lo) & ((1 << (hi - lo + 1)) - 1);
    }

    private static int sext(final int v, final int width) {
        return v << (32 - width) >> (32 - width);
    }
}
