package dev.nicsim.riscv;

import java.util.Random;

/**
 * Random RISC-V programs as machine words, for the translator's differential harness (no
 * assembler needed): a prologue that points {@code mtvec} at the program's start (so a trap
 * restarts it), then a mix of the integer ALU ops (with RV64's W forms), the M extension, Zbb and
 * Zbs forms, loads and stores of every width off a scratch base (sometimes misaligned, sometimes
 * into the code itself: self-modifying code), branches and jumps forward and backward, auipc/jalr
 * pairs, counter CSR reads ({@code mcycle}, {@code minstret}), {@code fence.i}, {@code ecall}, and
 * random 32- and 16-bit words (illegal, system, compressed). Encodings per Volume I 20191213
 * chapter 24 and the Bit-Manipulation 1.0.0 chapter 3. Deterministic for a seed.
 */
final class RandomWordPrograms {
    /** First byte of the one memory region. */
    static final long REGION_BASE = 0x1000;
    /** Region size: code from {@link #CODE_BASE} (crossing a page boundary), scratch at 0x3000-0x3fff. */
    static final long REGION_BYTES = 0x3000;
    /** The program's first instruction (0xf00 into a page, so programs cross into the next). */
    static final long CODE_BASE = 0x1f00;
    /** What x8 points at: the middle of the scratch page. */
    static final long SCRATCH = 0x3800;

    private RandomWordPrograms() {
    }

    /**
     * @param seed  the seed
     * @param xlen  32 or 64
     * @param count instructions after the prologue
     * @return the program's bytes, to load at {@link #CODE_BASE}
     */
    static byte[] generate(final long seed, final int xlen, final int count) {
        final Random r = new Random(seed);
        final java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        // prologue: x9 = CODE_BASE (lui, addi) ; csrrw x0, mtvec, x9
        word(b, u((int) ((CODE_BASE + 0x800) >>> 12), 9, 0x37));
        word(b, i((int) (CODE_BASE - ((CODE_BASE + 0x800) >>> 12 << 12)), 9, 0, 9, 0x13));
        word(b, i(0x305, 9, 1, 0, 0x73));
        for (int k = 0; k < count; k++) {
            final int p = r.nextInt(100);
            final int rd = 1 + r.nextInt(31);
            final int rs1 = r.nextInt(32);
            final int rs2 = r.nextInt(32);
            if (p < 25) { // OP: base ops and M
                final int f7 = new int[] {0, 0x20, 1}[r.nextInt(3)];
                word(b, rtype(f7, rs2, rs1, r.nextInt(8), rd, 0x33));
            } else if (p < 33 && xlen == 64) { // OP-32
                final int f7 = new int[] {0, 0x20, 1}[r.nextInt(3)];
                word(b, rtype(f7, rs2, rs1, r.nextInt(8), rd, 0x3b));
            } else if (p < 45) { // OP-IMM (shifts with legal shamt most of the time)
                final int f3 = r.nextInt(8);
                int imm = r.nextInt(4096) - 2048;
                if (f3 == 1 || f3 == 5) {
                    imm = r.nextInt(xlen) | (f3 == 5 && r.nextBoolean() ? 0x400 : 0);
                }
                word(b, i(imm, rs1, f3, rd, 0x13));
            } else if (p < 49 && xlen == 64) { // OP-IMM-32
                final int f3 = new int[] {0, 1, 5}[r.nextInt(3)];
                final int imm = f3 == 0 ? r.nextInt(4096) - 2048 : r.nextInt(32) | (f3 == 5 && r.nextBoolean() ? 0x400 : 0);
                word(b, i(imm, rs1, f3, rd, 0x1b));
            } else if (p < 52) {
                word(b, u(r.nextInt(1 << 20), rd, r.nextBoolean() ? 0x37 : 0x17));
            } else if (p < 62) { // loads off x8 (sometimes misaligned, sometimes off a random register)
                final int base = r.nextInt(10) == 0 ? rs1 : 8;
                final int off = (r.nextInt(512) - 256) & (r.nextInt(8) == 0 ? -1 : -8);
                word(b, i(off, base, r.nextInt(xlen == 64 ? 7 : 6), rd == 8 ? 10 : rd, 0x03));
            } else if (p < 70) { // stores off x8, or into the code (x7 = pc-relative)
                final int width = r.nextInt(xlen == 64 ? 4 : 3);
                if (r.nextInt(20) == 0) {
                    word(b, u(0, 7, 0x17)); // auipc x7, 0
                    word(b, s(4 * (1 + r.nextInt(8)), rs2, 7, width, 0x23));
                } else {
                    final int off = (r.nextInt(512) - 256) & (r.nextInt(8) == 0 ? -1 : -8);
                    word(b, s(off, rs2, 8, width, 0x23));
                }
            } else if (p < 78) { // branches, mostly forward
                final int f3 = new int[] {0, 1, 4, 5, 6, 7}[r.nextInt(6)];
                final int off = 4 * (r.nextInt(4) == 0 ? -r.nextInt(16) : 1 + r.nextInt(12));
                word(b, btype(off, rs2, rs1, f3, 0x63));
            } else if (p < 81) {
                final int link = new int[] {0, 1, 5, rd == 8 ? 0 : rd}[r.nextInt(4)];
                word(b, jtype(4 * (r.nextInt(6) == 0 ? -r.nextInt(16) : 1 + r.nextInt(10)), link, 0x6f));
            } else if (p < 83) { // auipc x9, 0 ; jalr rd, off(x9)
                final int link = new int[] {0, 1, 5}[r.nextInt(3)];
                word(b, u(0, 9, 0x17));
                word(b, i(4 * (r.nextInt(10) - 2), 9, 0, link, 0x67));
            } else if (p < 90) { // Zbb / Zbs
                final int[][] rr = {{0x20, 7}, {0x20, 6}, {0x20, 4}, {0x05, 6}, {0x05, 7}, {0x05, 4}, {0x05, 5}, {0x30, 1},
                    {0x30, 5}, {0x24, 1}, {0x24, 5}, {0x34, 1}, {0x14, 1}};
                final int q = r.nextInt(rr.length + 8);
                if (q < rr.length) {
                    word(b, rtype(rr[q][0], rs2, rs1, rr[q][1], rd, 0x33));
                } else {
                    final int sh = r.nextInt(xlen);
                    final int[][] un = {{0x600, 1}, {0x601, 1}, {0x602, 1}, {0x604, 1}, {0x605, 1}, {0x287, 5},
                        {xlen == 64 ? 0x6b8 : 0x698, 5}, {0x600 | sh, 5}};
                    final int[] u = un[q - rr.length];
                    word(b, i(u[0], rs1, u[1], rd, 0x13));
                }
            } else if (p < 92) { // csrrs rd, mcycle | minstret, x0
                word(b, i(r.nextBoolean() ? 0xb00 : 0xb02, 0, 2, rd, 0x73));
            } else if (p < 93) {
                word(b, r.nextBoolean() ? 0x0000100f : 0x00000073); // fence.i, ecall
            } else if (p < 96) { // a compressed word
                final int h = r.nextInt(1 << 16);
                b.write(h & 0xfc | (h & 3) % 3);
                b.write(h >>> 8);
            } else if (p < 98) {
                word(b, r.nextInt());
            } else {
                word(b, i(r.nextInt(2048), rs1, 0, rd, 0x13)); // addi
            }
        }
        return b.toByteArray();
    }

    private static void word(final java.io.ByteArrayOutputStream b, final int w) {
        b.write(w);
        b.write(w >>> 8);
        b.write(w >>> 16);
        b.write(w >>> 24);
    }

    private static int rtype(final int f7, final int rs2, final int rs1, final int f3, final int rd, final int opc) {
        return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
    }

    private static int i(final int imm, final int rs1, final int f3, final int rd, final int opc) {
        return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
    }

    private static int s(final int imm, final int rs2, final int rs1, final int f3, final int opc) {
        return (imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 31) << 7 | opc;
    }

    private static int btype(final int imm, final int rs2, final int rs1, final int f3, final int opc) {
        return (imm >> 12 & 1) << 31 | (imm >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm >> 1 & 0xf) << 8
            | (imm >> 11 & 1) << 7 | opc;
    }

    private static int u(final int imm20, final int rd, final int opc) {
        return imm20 << 12 | rd << 7 | opc;
    }

    private static int jtype(final int imm, final int rd, final int opc) {
        return (imm >> 20 & 1) << 31 | (imm >> 1 & 0x3ff) << 21 | (imm >> 11 & 1) << 20 | (imm >> 12 & 0xff) << 12 | rd << 7 | opc;
    }

    /** Corner-case and random starting values for x1..x31 (x8 is the scratch base). */
    static long[] registers(final long seed, final int xlen) {
        final Random r = new Random(seed ^ 0x5eed);
        final long[] corners = {0, 1, -1, 2, Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, 31, 32, 63, 64,
            0xffffffffL, SCRATCH, CODE_BASE};
        final long[] v = new long[32];
        for (int k = 1; k < 32; k++) {
            v[k] = r.nextBoolean() ? corners[r.nextInt(corners.length)] : r.nextLong();
        }
        v[8] = SCRATCH;
        return v;
    }
}
