package dev.nicsim.riscv.diff;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Writes a random RISC-V instruction sequence as a GNU assembler source that, linked with the
 * test runtime ({@code src/test/c/rt/rt.c} and {@code regdump.c}), runs to completion under both
 * QEMU user mode and nicsim and prints its final architectural state: the 31 integer registers
 * and a 256-byte scratch buffer in hex (see {@code rt_dump_regs}).
 *
 * <p>The sequence mixes RV32I/RV64I register-register and register-immediate ALU operations
 * (including the RV64 W forms), {@code lui}/{@code auipc}, every M-extension operation, aligned
 * loads and stores of every width into the scratch buffer, optional A-extension AMOs and
 * {@code lr}/{@code sc} pairs (sometimes followed by an {@code sc} that must fail), forward
 * conditional branches, {@code jal}, {@code jalr}, optional Zbb and Zbs operations, and counted
 * backward loops of 2 to 5
 * iterations. Apart from those loops, whose counter no other instruction writes, every control
 * transfer goes forward, so every program terminates. Registers start from values chosen to hit corner cases
 * (0, &plusmn;1, XLEN and 32-bit minima/maxima, shift amounts around XLEN) or random ones.
 * Compressed (C) encodings come from the assembler, which compresses every eligible instruction
 * when the target has C; the generator biases toward such forms (rd = rs1, registers x8-x15,
 * small scaled offsets from the scratch base, branches against x0, and groups that point sp at the
 * scratch buffer for the stack-pointer forms).
 *
 * <p>Reserved registers: x8 holds the scratch buffer's address for the whole program and x9 is the
 * address temporary of AMOs and {@code jalr} and the loop counter; neither is ever a random
 * destination. The dump area
 * sits right after the scratch buffer so x8-relative stores reach it.
 *
 * <p>Source: instruction semantics and encodings per the RISC-V unprivileged ISA specification
 * 20191213 (chapters 2, 5, 7, 8 and 16). Deterministic: the same arguments give the same text.
 * Instances are not needed; the class is stateless and thread-safe.
 */
final class RandomProgramGenerator {

    /** Size of the scratch buffer that loads, stores and AMOs address, in bytes. */
    static final int SCRATCH_BYTES = 256;

    private static final int BASE_REG = 8;
    private static final int ADDR_REG = 9;

    private static final String[] RR_OPS = {
        "add", "sub", "sll", "srl", "sra", "slt", "sltu", "xor", "or", "and"};
    private static final String[] RR_W_OPS = {"addw", "subw", "sllw", "srlw", "sraw"};
    private static final String[] M_OPS = {
        "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
    private static final String[] M_W_OPS = {"mulw", "divw", "divuw", "remw", "remuw"};
    private static final String[] IMM_OPS = {"addi", "slti", "sltiu", "xori", "ori", "andi"};
    private static final String[] SHIFT_IMM_OPS = {"slli", "srli", "srai"};
    private static final String[] SHIFT_IMM_W_OPS = {"slliw", "srliw", "sraiw"};
    private static final String[] BRANCH_OPS = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
    private static final String[] AMO_OPS = {
        "amoswap", "amoadd", "amoxor", "amoand", "amoor", "amomin", "amomax", "amominu", "amomaxu"};
    private static final String[] AMO_ORDER = {"", "", ".aq", ".rl", ".aqrl"};
    /** Zbb and Zbs register-register operations (Bit-Manipulation 1.0.0 chapter 3). */
    private static final String[] ZB_RR_OPS = {
        "andn", "orn", "xnor", "max", "maxu", "min", "minu", "rol", "ror", "bclr", "bext", "binv", "bset"};
    private static final String[] ZB_RR_W_OPS = {"rolw", "rorw"};
    private static final String[] ZB_UNARY_OPS = {"clz", "ctz", "cpop", "sext.b", "sext.h", "zext.h", "orc.b", "rev8"};
    private static final String[] ZB_UNARY_W_OPS = {"clzw", "ctzw", "cpopw"};
    private static final String[] ZB_SHIFT_IMM_OPS = {"rori", "bclri", "bexti", "binvi", "bseti"};
    private static final int[] IMM12_CORNERS = {0, 1, -1, 2047, -2048, 31, 32, 63, 64, -2, 0x7ff, 0x555};

    private RandomProgramGenerator() {
    }

    /**
     * Generates one program.
     *
     * @param seed the random seed; equal seeds give byte-identical sources
     * @param xlen 32 or 64: selects RV32 or RV64 instructions and register widths
     * @param atomics whether to emit A-extension instructions (the target must have A)
     * @param instructionCount number of random items (an item is one instruction, or a short fixed
     *     group such as address set-up plus AMO); 1 to 100000
     * @return the assembler source text, lines ending in {@code '\n'}
     * @throws IllegalArgumentException if {@code xlen} is not 32 or 64 or the count is out of range
     */
    static String generate(long seed, int xlen, boolean atomics, int instructionCount) {
        return generate(seed, xlen, atomics, false, instructionCount);
    }

    /**
     * Generates one program, optionally with Zbb and Zbs instructions: then a fifth of the
     * register-register items become one of them (register-register, unary or shift-immediate,
     * RV64's W forms included). Without them the text is the same as {@link #generate(long, int,
     * boolean, int)}'s.
     *
     * @param seed the random seed; equal seeds give byte-identical sources
     * @param xlen 32 or 64
     * @param atomics whether to emit A-extension instructions (the target must have A)
     * @param bitManipulation whether to emit Zbb and Zbs instructions (the target must have them)
     * @param instructionCount number of random items, 1 to 100000
     * @return the assembler source text
     * @throws IllegalArgumentException if {@code xlen} is not 32 or 64 or the count is out of range
     */
    static String generate(long seed, int xlen, boolean atomics, boolean bitManipulation, int instructionCount) {
        if (xlen != 32 && xlen != 64) {
            throw new IllegalArgumentException("xlen must be 32 or 64, got " + xlen);
        }
        if (instructionCount < 1 || instructionCount > 100_000) {
            throw new IllegalArgumentException("instructionCount must be 1..100000, got " + instructionCount);
        }
        return new Emitter(new Random(seed), xlen, atomics, bitManipulation, instructionCount).emit();
    }

    /** One generation run: the random stream and the pending forward labels. */
    private static final class Emitter {
        private final Random rnd;
        private final int xlen;
        private final boolean atomics;
        private final boolean bitManipulation;
        private final int count;
        private final StringBuilder out = new StringBuilder(64 * 1024);
        /** {@code labelAt[i]}: whether item i is the target of some earlier control transfer. */
        private final boolean[] labelAt;

        Emitter(Random rnd, int xlen, boolean atomics, boolean bitManipulation, int count) {
            this.rnd = rnd;
            this.xlen = xlen;
            this.atomics = atomics;
            this.bitManipulation = bitManipulation;
            this.count = count;
            this.labelAt = new boolean[count + 1];
        }

        String emit() {
            int wordBytes = xlen / 8;
            line("/* generated by RandomProgramGenerator: xlen=" + xlen + " atomics=" + atomics
                    + " items=" + count + " */");
            line("    .option norelax");
            line("    .section .text.start, \"ax\", @progbits");
            line("    .globl _start");
            line("_start:");
            line("    lla x" + BASE_REG + ", rnd_scratch");
            for (int r = 1; r < 32; r++) {
                if (r != BASE_REG) {
                    line("    li x" + r + ", " + hex(initialValue()));
                }
            }
            List<String> items = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                items.add(item(i));
            }
            for (int i = 0; i < count; i++) {
                if (labelAt[i]) {
                    line(".Lt" + i + ":");
                }
                out.append(items.get(i));
            }
            line(".Lt" + count + ":");
            String store = xlen == 64 ? "sd" : "sw";
            for (int r = 1; r < 32; r++) {
                line("    " + store + " x" + r + ", " + (SCRATCH_BYTES + (r - 1) * wordBytes) + "(x" + BASE_REG + ")");
            }
            line("    la gp, __global_pointer$");
            line("    la sp, rnd_stack_top");
            line("    addi a0, x" + BASE_REG + ", " + SCRATCH_BYTES);
            line("    mv a1, x" + BASE_REG);
            line("    li a2, " + SCRATCH_BYTES);
            line("    call rt_dump_regs");
            line("    call rt_exit");
            line("    .data");
            line("    .balign 8");
            line("rnd_scratch:");
            for (int i = 0; i < SCRATCH_BYTES; i += 16) {
                StringBuilder b = new StringBuilder("    .byte ");
                for (int k = 0; k < 16; k++) {
                    b.append(k == 0 ? "" : ", ").append(rnd.nextInt(256));
                }
                line(b.toString());
            }
            line("rnd_regdump:");
            line("    .space " + 31 * wordBytes);
            line("    .bss");
            line("    .balign 16");
            line("rnd_stack:");
            line("    .space 4096");
            line("rnd_stack_top:");
            return out.toString();
        }

        private String item(int index) {
            int kind = rnd.nextInt(100);
            if (kind < 20) {
                if (bitManipulation && rnd.nextInt(5) == 0) {
                    return bitManipulation();
                }
                return rr(pick(RR_OPS), xlen == 64 && rnd.nextInt(4) == 0 ? pick(RR_W_OPS) : null);
            } else if (kind < 35) {
                return immediate();
            } else if (kind < 48) {
                return rr(pick(M_OPS), xlen == 64 && rnd.nextInt(3) == 0 ? pick(M_W_OPS) : null);
            } else if (kind < 50) {
                return loop(index);
            } else if (kind < 53) {
                return "    " + (rnd.nextBoolean() ? "lui" : "auipc") + " " + dest() + ", "
                        + hex(rnd.nextBoolean() ? rnd.nextInt(1 << 20) : pickInt(0, 1, 0x80000, 0xfffff, 0x7ffff)) + "\n";
            } else if (kind < 58) {
                // fresh corner or random values keep the state from collapsing to 0 and -1
                return "    li " + dest() + ", " + hex(initialValue()) + "\n";
            } else if (kind < 68) {
                return load();
            } else if (kind < 77) {
                return store();
            } else if (kind < 89) {
                return branch(index);
            } else if (kind < 91) {
                return jump(index);
            } else if (kind < 93) {
                return stackPointerGroup();
            } else if (atomics) {
                return atomic();
            } else {
                return rr(pick(RR_OPS), null);
            }
        }

        private String rr(String op, String wideOverride) {
            String name = wideOverride != null ? wideOverride : op;
            String rd = dest();
            String rs1 = rnd.nextInt(3) == 0 ? rd : source();
            if (rd.equals("x0")) {
                rs1 = source();
            }
            return "    " + name + " " + rd + ", " + rs1 + ", " + source() + "\n";
        }

        private String bitManipulation() {
            int which = rnd.nextInt(3);
            boolean wide = xlen == 64 && rnd.nextInt(4) == 0;
            if (which == 0) {
                return rr(pick(ZB_RR_OPS), wide ? pick(ZB_RR_W_OPS) : null);
            }
            String rd = dest();
            String rs1 = rnd.nextInt(3) == 0 && !rd.equals("x0") ? rd : source();
            if (which == 1) {
                return "    " + (wide ? pick(ZB_UNARY_W_OPS) : pick(ZB_UNARY_OPS)) + " " + rd + ", " + rs1 + "\n";
            }
            return wide ? "    roriw " + rd + ", " + rs1 + ", " + shamt(32) + "\n"
                    : "    " + pick(ZB_SHIFT_IMM_OPS) + " " + rd + ", " + rs1 + ", " + shamt(xlen) + "\n";
        }

        private String immediate() {
            String rd = dest();
            String rs1 = rnd.nextInt(3) == 0 && !rd.equals("x0") ? rd : source();
            int which = rnd.nextInt(10);
            if (which < 5) {
                return "    " + pick(IMM_OPS) + " " + rd + ", " + rs1 + ", " + imm12() + "\n";
            } else if (which < 8 || xlen == 32) {
                return "    " + pick(SHIFT_IMM_OPS) + " " + rd + ", " + rs1 + ", " + shamt(xlen) + "\n";
            } else if (which == 8) {
                return "    addiw " + rd + ", " + rs1 + ", " + imm12() + "\n";
            } else {
                return "    " + pick(SHIFT_IMM_W_OPS) + " " + rd + ", " + rs1 + ", " + shamt(32) + "\n";
            }
        }

        private String load() {
            int width = accessWidth();
            String op;
            switch (width) {
                case 1: op = rnd.nextBoolean() ? "lb" : "lbu"; break;
                case 2: op = rnd.nextBoolean() ? "lh" : "lhu"; break;
                case 4: op = xlen == 64 && rnd.nextBoolean() ? "lwu" : "lw"; break;
                default: op = "ld"; break;
            }
            return "    " + op + " " + dest() + ", " + offset(width) + "(x" + BASE_REG + ")\n";
        }

        private String store() {
            int width = accessWidth();
            String op = width == 1 ? "sb" : width == 2 ? "sh" : width == 4 ? "sw" : "sd";
            return "    " + op + " " + source() + ", " + offset(width) + "(x" + BASE_REG + ")\n";
        }

        private String branch(int index) {
            int target = forwardTarget(index);
            // rs2 = x0 with rs1 in x8-x15 and beq/bne is what c.beqz/c.bnez encode
            String rs2 = rnd.nextInt(4) == 0 ? "x0" : source();
            return "    " + pick(BRANCH_OPS) + " " + source() + ", " + rs2 + ", .Lt" + target + "\n";
        }

        /**
         * Points sp (x2) at the scratch buffer and uses it the way the C extension's stack-pointer
         * forms encode: c.mv, c.lwsp/c.ldsp, c.swsp/c.sdsp, c.addi16sp and c.addi4spn (the assembler
         * picks them on C targets; elsewhere they are the same 32-bit instructions).
         */
        private String stackPointerGroup() {
            int width = xlen == 64 && rnd.nextBoolean() ? 8 : 4;
            String load = width == 8 ? "ld" : "lw";
            String store = width == 8 ? "sd" : "sw";
            StringBuilder b = new StringBuilder("    mv x2, x" + BASE_REG + "\n");
            // c.addi16sp: a nonzero multiple of 16 in -512..496; stay inside the 256-byte buffer
            int bump = 16 * (1 + rnd.nextInt(6));
            b.append("    addi x2, x2, ").append(bump).append('\n');
            int room = SCRATCH_BYTES - bump;
            String rd = dest();
            while (rd.equals("x2")) {
                rd = dest();   // the store below still needs sp as its base
            }
            b.append("    ").append(load).append(' ').append(rd).append(", ")
                    .append(rnd.nextInt(room / width) * width).append("(x2)\n");
            b.append("    ").append(store).append(' ').append(source()).append(", ")
                    .append(rnd.nextInt(room / width) * width).append("(x2)\n");
            // c.addi4spn: rd in x8-x15 (x10-x15 here), a nonzero multiple of 4 up to 1020
            b.append("    addi x").append(10 + rnd.nextInt(6)).append(", x2, ").append(4 * (1 + rnd.nextInt(255))).append('\n');
            b.append("    addi x2, x2, -").append(bump).append('\n');
            return b.toString();
        }

        private String jump(int index) {
            int target = forwardTarget(index);
            if (rnd.nextBoolean()) {
                return "    jal " + dest() + ", .Lt" + target + "\n";
            }
            return "    lla x" + ADDR_REG + ", .Lt" + target + "\n    jalr " + dest() + ", 0(x" + ADDR_REG + ")\n";
        }

        private String atomic() {
            int width = xlen == 64 && rnd.nextBoolean() ? 8 : 4;
            String suffix = width == 8 ? ".d" : ".w";
            String setup = "    addi x" + ADDR_REG + ", x" + BASE_REG + ", " + offset(width) + "\n";
            if (rnd.nextInt(4) == 0) {
                // lr/sc with one register-only instruction between them: the sc succeeds (rd = 0)
                String value = dest();
                return setup
                        + "    lr" + suffix + pick(AMO_ORDER) + " " + value + ", (x" + ADDR_REG + ")\n"
                        + rr(pick(RR_OPS), null)
                        + "    sc" + suffix + pick(AMO_ORDER) + " " + dest() + ", " + source() + ", (x" + ADDR_REG + ")\n"
                        // a second SC without an LR must fail (rd = 1): the first ended the reservation
                        + (rnd.nextBoolean() ? "    sc" + suffix + " " + dest() + ", " + source() + ", (x" + ADDR_REG + ")\n" : "");
            }
            return setup + "    " + pick(AMO_OPS) + suffix + pick(AMO_ORDER) + " " + dest() + ", " + source()
                    + ", (x" + ADDR_REG + ")\n";
        }

        /**
         * A counted backward loop: x9 counts 2 to 5 iterations of 2 to 6 straight-line items
         * (ALU, M, li, loads, stores; nothing that writes x9 or leaves the loop), so the same
         * decoded instructions and the same backward branch run repeatedly.
         */
        private String loop(int index) {
            StringBuilder b = new StringBuilder();
            b.append("    li x").append(ADDR_REG).append(", ").append(2 + rnd.nextInt(4)).append('\n');
            b.append(".Lloop").append(index).append(":\n");
            int body = 2 + rnd.nextInt(5);
            for (int k = 0; k < body; k++) {
                switch (rnd.nextInt(6)) {
                    case 0: b.append(rr(pick(RR_OPS), xlen == 64 && rnd.nextInt(4) == 0 ? pick(RR_W_OPS) : null)); break;
                    case 1: b.append(immediate()); break;
                    case 2: b.append(rr(pick(M_OPS), null)); break;
                    case 3: b.append(load()); break;
                    case 4: b.append(store()); break;
                    default: b.append("    li ").append(dest()).append(", ").append(hex(initialValue())).append('\n'); break;
                }
            }
            b.append("    addi x").append(ADDR_REG).append(", x").append(ADDR_REG).append(", -1\n");
            b.append("    bnez x").append(ADDR_REG).append(", .Lloop").append(index).append('\n');
            return b.toString();
        }

        /** A target 1 to 4 items ahead (a branch over 0 to 3 items), at most the end label. */
        private int forwardTarget(int index) {
            int target = Math.min(count, index + 1 + rnd.nextInt(4));
            labelAt[target] = true;
            return target;
        }

        private int accessWidth() {
            int w = 1 << rnd.nextInt(xlen == 64 ? 4 : 3);
            return w;
        }

        /** An aligned offset into the scratch buffer; small ones favour compressed encodings. */
        private int offset(int width) {
            int limit = rnd.nextBoolean() ? Math.min(SCRATCH_BYTES, 32 * width) : SCRATCH_BYTES;
            return rnd.nextInt(limit / width) * width;
        }

        private String dest() {
            if (rnd.nextInt(40) == 0) {
                return "x0";
            }
            int r;
            do {
                r = rnd.nextInt(3) == 0 ? 10 + rnd.nextInt(6) : 1 + rnd.nextInt(31);
            } while (r == BASE_REG || r == ADDR_REG);
            return "x" + r;
        }

        private String source() {
            int r = rnd.nextInt(3) == 0 ? 10 + rnd.nextInt(6) : rnd.nextInt(32);
            return "x" + r;
        }

        private String imm12() {
            return Integer.toString(rnd.nextInt(3) == 0 ? IMM12_CORNERS[rnd.nextInt(IMM12_CORNERS.length)]
                    : rnd.nextInt(4096) - 2048);
        }

        private String shamt(int bits) {
            int v = rnd.nextInt(4) == 0 ? pickInt(0, 1, bits - 1, bits / 2) : rnd.nextInt(bits);
            return Integer.toString(v);
        }

        private long initialValue() {
            long v;
            switch (rnd.nextInt(12)) {
                case 0: v = 0; break;
                case 1: v = 1; break;
                case 2: v = -1; break;
                case 3: v = xlen == 64 ? Long.MIN_VALUE : Integer.MIN_VALUE; break;
                case 4: v = xlen == 64 ? Long.MAX_VALUE : Integer.MAX_VALUE; break;
                case 5: v = Integer.MIN_VALUE; break;
                case 6: v = 0xffff_ffffL; break;
                case 7: v = xlen + rnd.nextInt(3) - 1; break;
                case 8: v = rnd.nextInt(4096) - 2048; break;
                default: v = rnd.nextLong(); break;
            }
            return xlen == 32 ? (int) v : v;
        }

        private String pick(String[] choices) {
            return choices[rnd.nextInt(choices.length)];
        }

        private int pickInt(int... choices) {
            return choices[rnd.nextInt(choices.length)];
        }

        private void line(String s) {
            out.append(s).append('\n');
        }

        private static String hex(long v) {
            return v < 0 ? "-0x" + Long.toHexString(-v).toLowerCase(Locale.ROOT) : "0x" + Long.toHexString(v);
        }
    }
}
