package dev.nicsim.riscv;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The decoder table, Spike style: one table of instructions (name, mask, match, operand format,
 * execution op for RV64 and for RV32, timing class) drives decoding ({@link #decode}),
 * execution (the op numbers {@link Hart} switches on) and disassembly ({@link #disassemble}).
 * Names, encodings and formats follow "The RISC-V Instruction Set Manual, Volume I: Unprivileged
 * ISA" (20191213): RV32I/RV64I (ch. 2, 5), Zifencei (ch. 3), Zicsr (ch. 9), M (ch. 7), A (ch. 8),
 * C (ch. 16, expanded to the equivalent 32-bit instruction as §16.8's tables say), the
 * machine-mode instructions {@code mret}, {@code wfi} of Volume II (Privileged, 20211203, §3.3),
 * and the optional {@link Extension}s Zbb and Zbs ("RISC-V Bit-Manipulation ISA-extensions"
 * 1.0.0).
 *
 * <p>A decoded instruction is one {@code long}: the low 32 bits are
 * {@code op | rd << 8 | rs1 << 14 | rs2 << 19 | length << 24} (length 2 or 4 bytes; {@code rd}
 * is {@link #SINK} for x0 and for instructions that write no register, so a write to it is
 * harmless); the high 32 bits are the immediate (CSR number for Zicsr; the instruction word for
 * {@link #ILLEGAL}). Registers hold XLEN values sign-extended to 64 bits (as Spike does), so an
 * RV32 {@code add} executes as {@code addw}: the table maps each RV32 instruction to the op
 * with RV32 semantics.
 *
 * <p>Thread-safety: immutable; all methods are pure.
 */
public final class Isa {
    private Isa() {
    }

    /** The register index that absorbs writes to x0 (the register file has 33 entries). */
    public static final int SINK = 32;

    // ---- execution ops (values are array indexes; 0 = not yet decoded) ----
    /** Not yet decoded (the decoded-instruction cache's empty slot). */
    public static final int UNDECODED = 0;
    /** Illegal instruction: raises cause 2 with the instruction word in mtval. */
    public static final int ILLEGAL = 1;
    static final int LUI = 2, AUIPC = 3, JAL = 4, JALR = 5;
    static final int BEQ = 6, BNE = 7, BLT = 8, BGE = 9, BLTU = 10, BGEU = 11;
    static final int LB = 12, LH = 13, LW = 14, LBU = 15, LHU = 16, LWU = 17, LD = 18;
    static final int SB = 19, SH = 20, SW = 21, SD = 22;
    static final int ADDI = 23, SLTI = 24, SLTIU = 25, XORI = 26, ORI = 27, ANDI = 28, SLLI = 29, SRLI = 30, SRAI = 31;
    static final int ADD = 32, SUB = 33, SLL = 34, SLT = 35, SLTU = 36, XOR = 37, SRL = 38, SRA = 39, OR = 40, AND = 41;
    static final int ADDIW = 42, SLLIW = 43, SRLIW = 44, SRAIW = 45;
    static final int ADDW = 46, SUBW = 47, SLLW = 48, SRLW = 49, SRAW = 50;
    static final int MUL = 51, MULH = 52, MULHSU = 53, MULHU = 54, DIV = 55, DIVU = 56, REM = 57, REMU = 58;
    static final int MULW = 59, DIVW = 60, DIVUW = 61, REMW = 62, REMUW = 63;
    static final int MULH32 = 64, MULHSU32 = 65, MULHU32 = 66;
    static final int LR_W = 67, SC_W = 68, AMOSWAP_W = 69, AMOADD_W = 70, AMOXOR_W = 71, AMOAND_W = 72, AMOOR_W = 73,
        AMOMIN_W = 74, AMOMAX_W = 75, AMOMINU_W = 76, AMOMAXU_W = 77;
    static final int LR_D = 78, SC_D = 79, AMOSWAP_D = 80, AMOADD_D = 81, AMOXOR_D = 82, AMOAND_D = 83, AMOOR_D = 84,
        AMOMIN_D = 85, AMOMAX_D = 86, AMOMINU_D = 87, AMOMAXU_D = 88;
    static final int FENCE = 89, FENCE_I = 90, ECALL = 91, EBREAK = 92, MRET = 93, WFI = 94;
    static final int CSRRW = 95, CSRRS = 96, CSRRC = 97, CSRRWI = 98, CSRRSI = 99, CSRRCI = 100;
    // Zbb (the W forms are RV64's, and also execute RV32's clz, ctz, cpop, rol, ror, rori)
    static final int ANDN = 101, ORN = 102, XNOR = 103, CLZ = 104, CLZW = 105, CTZ = 106, CTZW = 107, CPOP = 108,
        CPOPW = 109, MAX = 110, MAXU = 111, MIN = 112, MINU = 113, SEXT_B = 114, SEXT_H = 115, ZEXT_H = 116, ROL = 117,
        ROLW = 118, ROR = 119, RORW = 120, RORI = 121, RORIW = 122, ORC_B = 123, REV8 = 124;
    // Zbs
    static final int BCLR = 125, BCLRI = 126, BEXT = 127, BEXTI = 128, BINV = 129, BINVI = 130, BSET = 131, BSETI = 132;
    /** Number of execution ops (array size for per-op tables). */
    public static final int OP_COUNT = 133;

    /**
     * Optional extensions a {@link CycleModel} may enable; their instructions decode always (so
     * traces and the disassembler name them) and raise illegal-instruction on a hart whose model
     * does not enable them. Source: "RISC-V Bit-Manipulation ISA-extensions" 1.0.0 (2021), §2.1
     * (Zbb), §2.4 (Zbs) and the encodings of chapter 3.
     */
    public enum Extension {
        /** Basic bit manipulation: andn, orn, xnor, clz, ctz, cpop, max/min, sext/zext, rotates, orc.b, rev8. */
        ZBB,
        /** Single-bit instructions: bclr, bext, binv, bset and their immediate forms. */
        ZBS
    }

    /** Operand formats: how fields are extracted and printed. */
    enum Fmt { R, I, LOAD, S, B, U, J, SHIFT, UNARY, CSR, CSRI, AMO, LR, NONE }

    /** One row of the decoder table. */
    record Insn(String name, int mask, int match, Fmt fmt, int op64, int op32, TimingClass timing, boolean writesRd) {
    }

    private static final Insn[] TABLE;
    private static final TimingClass[] OP_TIMING = new TimingClass[OP_COUNT];
    private static final Extension[] OP_EXTENSION = new Extension[OP_COUNT];

    static {
        final List<Insn> t = new ArrayList<>();
        final TimingClass alu = TimingClass.ALU;
        t.add(new Insn("lui", 0x7f, 0x37, Fmt.U, LUI, LUI, alu, true));
        t.add(new Insn("auipc", 0x7f, 0x17, Fmt.U, AUIPC, AUIPC, alu, true));
        t.add(new Insn("jal", 0x7f, 0x6f, Fmt.J, JAL, JAL, TimingClass.JAL, true));
        t.add(new Insn("jalr", 0x707f, 0x67, Fmt.LOAD, JALR, JALR, TimingClass.JALR, true));
        final String[] br = {"beq", "bne", null, null, "blt", "bge", "bltu", "bgeu"};
        final int[] brOp = {BEQ, BNE, 0, 0, BLT, BGE, BLTU, BGEU};
        for (int f = 0; f < 8; f++) {
            if (br[f] != null) {
                t.add(new Insn(br[f], 0x707f, 0x63 | f << 12, Fmt.B, brOp[f], brOp[f], TimingClass.BRANCH, false));
            }
        }
        t.add(new Insn("lb", 0x707f, 0x03, Fmt.LOAD, LB, LB, TimingClass.LOAD_SUBWORD, true));
        t.add(new Insn("lh", 0x707f, 0x1003, Fmt.LOAD, LH, LH, TimingClass.LOAD_SUBWORD, true));
        t.add(new Insn("lw", 0x707f, 0x2003, Fmt.LOAD, LW, LW, TimingClass.LOAD, true));
        t.add(new Insn("ld", 0x707f, 0x3003, Fmt.LOAD, LD, -1, TimingClass.LOAD, true));
        t.add(new Insn("lbu", 0x707f, 0x4003, Fmt.LOAD, LBU, LBU, TimingClass.LOAD_SUBWORD, true));
        t.add(new Insn("lhu", 0x707f, 0x5003, Fmt.LOAD, LHU, LHU, TimingClass.LOAD_SUBWORD, true));
        t.add(new Insn("lwu", 0x707f, 0x6003, Fmt.LOAD, LWU, -1, TimingClass.LOAD, true));
        t.add(new Insn("sb", 0x707f, 0x23, Fmt.S, SB, SB, TimingClass.STORE, false));
        t.add(new Insn("sh", 0x707f, 0x1023, Fmt.S, SH, SH, TimingClass.STORE, false));
        t.add(new Insn("sw", 0x707f, 0x2023, Fmt.S, SW, SW, TimingClass.STORE, false));
        t.add(new Insn("sd", 0x707f, 0x3023, Fmt.S, SD, -1, TimingClass.STORE, false));
        t.add(new Insn("addi", 0x707f, 0x13, Fmt.I, ADDI, ADDIW, alu, true));
        t.add(new Insn("slti", 0x707f, 0x2013, Fmt.I, SLTI, SLTI, alu, true));
        t.add(new Insn("sltiu", 0x707f, 0x3013, Fmt.I, SLTIU, SLTIU, alu, true));
        t.add(new Insn("xori", 0x707f, 0x4013, Fmt.I, XORI, XORI, alu, true));
        t.add(new Insn("ori", 0x707f, 0x6013, Fmt.I, ORI, ORI, alu, true));
        t.add(new Insn("andi", 0x707f, 0x7013, Fmt.I, ANDI, ANDI, alu, true));
        t.add(new Insn("slli", 0xfc00707f, 0x1013, Fmt.SHIFT, SLLI, SLLIW, alu, true));
        t.add(new Insn("srli", 0xfc00707f, 0x5013, Fmt.SHIFT, SRLI, SRLIW, alu, true));
        t.add(new Insn("srai", 0xfc00707f, 0x40005013, Fmt.SHIFT, SRAI, SRAIW, alu, true));
        final String[] rn = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
        final int[] r64 = {ADD, SLL, SLT, SLTU, XOR, SRL, OR, AND};
        final int[] r32 = {ADDW, SLLW, SLT, SLTU, XOR, SRLW, OR, AND};
        for (int f = 0; f < 8; f++) {
            t.add(new Insn(rn[f], 0xfe00707f, 0x33 | f << 12, Fmt.R, r64[f], r32[f], alu, true));
        }
        t.add(new Insn("sub", 0xfe00707f, 0x40000033, Fmt.R, SUB, SUBW, alu, true));
        t.add(new Insn("sra", 0xfe00707f, 0x40005033, Fmt.R, SRA, SRAW, alu, true));
        t.add(new Insn("addiw", 0x707f, 0x1b, Fmt.I, ADDIW, -1, alu, true));
        t.add(new Insn("slliw", 0xfe00707f, 0x101b, Fmt.SHIFT, SLLIW, -1, alu, true));
        t.add(new Insn("srliw", 0xfe00707f, 0x501b, Fmt.SHIFT, SRLIW, -1, alu, true));
        t.add(new Insn("sraiw", 0xfe00707f, 0x4000501b, Fmt.SHIFT, SRAIW, -1, alu, true));
        t.add(new Insn("addw", 0xfe00707f, 0x3b, Fmt.R, ADDW, -1, alu, true));
        t.add(new Insn("subw", 0xfe00707f, 0x4000003b, Fmt.R, SUBW, -1, alu, true));
        t.add(new Insn("sllw", 0xfe00707f, 0x103b, Fmt.R, SLLW, -1, alu, true));
        t.add(new Insn("srlw", 0xfe00707f, 0x503b, Fmt.R, SRLW, -1, alu, true));
        t.add(new Insn("sraw", 0xfe00707f, 0x4000503b, Fmt.R, SRAW, -1, alu, true));
        final String[] mn = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
        final int[] m64 = {MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM, REMU};
        final int[] m32 = {MULW, MULH32, MULHSU32, MULHU32, DIVW, DIVUW, REMW, REMUW};
        for (int f = 0; f < 8; f++) {
            final TimingClass c = f == 0 ? TimingClass.MUL : f < 4 ? TimingClass.MULH : TimingClass.DIV;
            t.add(new Insn(mn[f], 0xfe00707f, 0x2000033 | f << 12, Fmt.R, m64[f], m32[f], c, true));
        }
        t.add(new Insn("mulw", 0xfe00707f, 0x200003b, Fmt.R, MULW, -1, TimingClass.MUL, true));
        t.add(new Insn("divw", 0xfe00707f, 0x200403b, Fmt.R, DIVW, -1, TimingClass.DIV, true));
        t.add(new Insn("divuw", 0xfe00707f, 0x200503b, Fmt.R, DIVUW, -1, TimingClass.DIV, true));
        t.add(new Insn("remw", 0xfe00707f, 0x200603b, Fmt.R, REMW, -1, TimingClass.DIV, true));
        t.add(new Insn("remuw", 0xfe00707f, 0x200703b, Fmt.R, REMUW, -1, TimingClass.DIV, true));
        final String[] an = {"amoadd", "amoswap", "lr", "sc", "amoxor", null, null, null, "amoor", null, null, null, "amoand",
            null, null, null, "amomin", null, null, null, "amomax", null, null, null, "amominu", null, null, null, "amomaxu"};
        final int[] aw = new int[29];
        aw[0] = AMOADD_W; aw[1] = AMOSWAP_W; aw[2] = LR_W; aw[3] = SC_W; aw[4] = AMOXOR_W; aw[8] = AMOOR_W; aw[12] = AMOAND_W;
        aw[16] = AMOMIN_W; aw[20] = AMOMAX_W; aw[24] = AMOMINU_W; aw[28] = AMOMAXU_W;
        for (int f5 = 0; f5 < 29; f5++) {
            if (an[f5] == null) {
                continue;
            }
            final boolean lr = f5 == 2;
            final int mask = lr ? 0xf9f0707f : 0xf800707f;
            final int opD = aw[f5] + (LR_D - LR_W);
            t.add(new Insn(an[f5] + ".w", mask, 0x202f | f5 << 27, lr ? Fmt.LR : Fmt.AMO, aw[f5], aw[f5], TimingClass.AMO, true));
            t.add(new Insn(an[f5] + ".d", mask, 0x302f | f5 << 27, lr ? Fmt.LR : Fmt.AMO, opD, -1, TimingClass.AMO, true));
        }
        t.add(new Insn("fence", 0x707f, 0x0f, Fmt.NONE, FENCE, FENCE, TimingClass.FENCE, false));
        t.add(new Insn("fence.i", 0x707f, 0x100f, Fmt.NONE, FENCE_I, FENCE_I, TimingClass.FENCE, false));
        t.add(new Insn("ecall", 0xffffffff, 0x73, Fmt.NONE, ECALL, ECALL, TimingClass.SYSTEM, false));
        t.add(new Insn("ebreak", 0xffffffff, 0x100073, Fmt.NONE, EBREAK, EBREAK, TimingClass.SYSTEM, false));
        t.add(new Insn("mret", 0xffffffff, 0x30200073, Fmt.NONE, MRET, MRET, TimingClass.SYSTEM, false));
        t.add(new Insn("wfi", 0xffffffff, 0x10500073, Fmt.NONE, WFI, WFI, TimingClass.SYSTEM, false));
        final String[] cn = {null, "csrrw", "csrrs", "csrrc", null, "csrrwi", "csrrsi", "csrrci"};
        final int[] co = {0, CSRRW, CSRRS, CSRRC, 0, CSRRWI, CSRRSI, CSRRCI};
        for (int f = 1; f < 8; f++) {
            if (cn[f] != null) {
                t.add(new Insn(cn[f], 0x707f, 0x73 | f << 12, f < 4 ? Fmt.CSR : Fmt.CSRI, co[f], co[f], TimingClass.CSR, true));
            }
        }
        addBitManipulation(t);
        TABLE = t.toArray(new Insn[0]);
        OP_TIMING[UNDECODED] = TimingClass.SYSTEM;
        OP_TIMING[ILLEGAL] = TimingClass.SYSTEM;
        for (final Insn i : TABLE) {
            for (final int op : new int[] {i.op64(), i.op32()}) {
                if (op > 0 && OP_TIMING[op] == null) {
                    OP_TIMING[op] = i.timing();
                }
            }
        }
        for (int i = 0; i < OP_COUNT; i++) {
            if (OP_TIMING[i] == null) {
                throw new IllegalStateException("op " + i + " has no table row");
            }
        }
    }

    /**
     * The Zbb and Zbs rows (Bit-Manipulation 1.0.0, chapter 3). Timing class ALU for all: each is
     * one single-cycle ALU operation in the cores the models describe (an assumption where the
     * core has no Zbb of its own). Where RV32 and RV64 encode an instruction differently (zext.h,
     * rev8) there is one row for each, present in one XLEN only.
     */
    private static void addBitManipulation(final List<Insn> t) {
        final TimingClass alu = TimingClass.ALU;
        final Object[][] zbb = {
            {"andn", 0xfe00707f, 0x40007033, Fmt.R, ANDN, ANDN}, {"orn", 0xfe00707f, 0x40006033, Fmt.R, ORN, ORN},
            {"xnor", 0xfe00707f, 0x40004033, Fmt.R, XNOR, XNOR},
            {"clz", 0xfff0707f, 0x60001013, Fmt.UNARY, CLZ, CLZW}, {"clzw", 0xfff0707f, 0x6000101b, Fmt.UNARY, CLZW, -1},
            {"ctz", 0xfff0707f, 0x60101013, Fmt.UNARY, CTZ, CTZW}, {"ctzw", 0xfff0707f, 0x6010101b, Fmt.UNARY, CTZW, -1},
            {"cpop", 0xfff0707f, 0x60201013, Fmt.UNARY, CPOP, CPOPW}, {"cpopw", 0xfff0707f, 0x6020101b, Fmt.UNARY, CPOPW, -1},
            {"max", 0xfe00707f, 0x0a006033, Fmt.R, MAX, MAX}, {"maxu", 0xfe00707f, 0x0a007033, Fmt.R, MAXU, MAXU},
            {"min", 0xfe00707f, 0x0a004033, Fmt.R, MIN, MIN}, {"minu", 0xfe00707f, 0x0a005033, Fmt.R, MINU, MINU},
            {"sext.b", 0xfff0707f, 0x60401013, Fmt.UNARY, SEXT_B, SEXT_B},
            {"sext.h", 0xfff0707f, 0x60501013, Fmt.UNARY, SEXT_H, SEXT_H},
            {"zext.h", 0xfff0707f, 0x08004033, Fmt.UNARY, -1, ZEXT_H}, {"zext.h", 0xfff0707f, 0x0800403b, Fmt.UNARY, ZEXT_H, -1},
            {"rol", 0xfe00707f, 0x60001033, Fmt.R, ROL, ROLW}, {"rolw", 0xfe00707f, 0x6000103b, Fmt.R, ROLW, -1},
            {"ror", 0xfe00707f, 0x60005033, Fmt.R, ROR, RORW}, {"rorw", 0xfe00707f, 0x6000503b, Fmt.R, RORW, -1},
            {"rori", 0xfc00707f, 0x60005013, Fmt.SHIFT, RORI, RORIW}, {"roriw", 0xfe00707f, 0x6000501b, Fmt.SHIFT, RORIW, -1},
            {"orc.b", 0xfff0707f, 0x28705013, Fmt.UNARY, ORC_B, ORC_B},
            {"rev8", 0xfff0707f, 0x69805013, Fmt.UNARY, -1, REV8}, {"rev8", 0xfff0707f, 0x6b805013, Fmt.UNARY, REV8, -1}};
        final Object[][] zbs = {
            {"bclr", 0xfe00707f, 0x48001033, Fmt.R, BCLR, BCLR}, {"bclri", 0xfc00707f, 0x48001013, Fmt.SHIFT, BCLRI, BCLRI},
            {"bext", 0xfe00707f, 0x48005033, Fmt.R, BEXT, BEXT}, {"bexti", 0xfc00707f, 0x48005013, Fmt.SHIFT, BEXTI, BEXTI},
            {"binv", 0xfe00707f, 0x68001033, Fmt.R, BINV, BINV}, {"binvi", 0xfc00707f, 0x68001013, Fmt.SHIFT, BINVI, BINVI},
            {"bset", 0xfe00707f, 0x28001033, Fmt.R, BSET, BSET}, {"bseti", 0xfc00707f, 0x28001013, Fmt.SHIFT, BSETI, BSETI}};
        for (final Object[][] ext : new Object[][][] {zbb, zbs}) {
            for (final Object[] r : ext) {
                t.add(new Insn((String) r[0], (Integer) r[1], (Integer) r[2], (Fmt) r[3], (Integer) r[4], (Integer) r[5], alu, true));
                for (final int op : new int[] {(Integer) r[4], (Integer) r[5]}) {
                    if (op > 0) {
                        OP_EXTENSION[op] = ext == zbb ? Extension.ZBB : Extension.ZBS;
                    }
                }
            }
        }
    }

    /**
     * The optional extension an execution op belongs to.
     *
     * @param op execution op, 0 to {@link #OP_COUNT} - 1
     * @return the extension, or {@code null} for the base ISA and the always-present M, A, C,
     *     Zicsr and Zifencei
     */
    public static Extension extensionOf(final int op) {
        return OP_EXTENSION[op];
    }

    /** @return a copy of the decoder table's rows, in match order (for tests that cover every row) */
    static Insn[] rows() {
        return TABLE.clone();
    }

    /**
     * The timing class of an execution op (what the cycle model charges).
     *
     * @param op execution op, 0 to {@link #OP_COUNT} - 1
     * @return its class
     */
    public static TimingClass timingOf(final int op) {
        return OP_TIMING[op];
    }

    /**
     * Whether a 16-bit parcel starts a 16-bit (compressed) instruction.
     *
     * @param lowHalf the instruction's first 16 bits
     * @return {@code true} unless bits [1:0] are {@code 11}
     */
    public static boolean isCompressed(final int lowHalf) {
        return (lowHalf & 3) != 3;
    }

    /**
     * Decodes one instruction.
     *
     * @param word instruction word (for a compressed instruction only the low 16 bits matter)
     * @param xlen 32 or 64
     * @return the packed decoded instruction (see the class comment); never {@link #UNDECODED}
     */
    public static long decode(final int word, final int xlen) {
        if (isCompressed(word)) {
            final int w = Rvc.expand(word & 0xffff, xlen);
            if (w == 0) {
                return illegal(word & 0xffff, 2);
            }
            final long d = decode32(w, xlen);
            if ((d & 0xff) == ILLEGAL) {
                return illegal(word & 0xffff, 2);
            }
            return (d & ~(0x7L << 24)) | 2L << 24;
        }
        return decode32(word, xlen);
    }

    private static long illegal(final int word, final int length) {
        return pack(ILLEGAL, SINK, 0, 0, length, word);
    }

    private static long pack(final int op, final int rd, final int rs1, final int rs2, final int length, final int imm) {
        return (op | rd << 8 | rs1 << 14 | rs2 << 19 | length << 24) & 0xffffffffL | (long) imm << 32;
    }

    /** @return the destination register of a packed decode ({@link #decode}), 0 to {@link #SINK} */
    static int rdOf(final long d) {
        return ((int) d >>> 8) & 63;
    }

    /** @return rs1 of a packed decode, 0 to 31 */
    static int rs1Of(final long d) {
        return ((int) d >>> 14) & 31;
    }

    /** @return rs2 of a packed decode, 0 to 31 */
    static int rs2Of(final long d) {
        return ((int) d >>> 19) & 31;
    }

    /** @return the instruction length in bytes of a packed decode, 2 or 4 */
    static int lengthOf(final long d) {
        return ((int) d >>> 24) & 7;
    }

    private static Insn find(final int w, final int xlen) {
        for (final Insn i : TABLE) {
            if ((w & i.mask()) == i.match()) {
                return (xlen == 32 ? i.op32() : i.op64()) < 0 ? null : i;
            }
        }
        return null;
    }

    private static long decode32(final int w, final int xlen) {
        final Insn i = find(w, xlen);
        if (i == null) {
            return illegal(w, 4);
        }
        final int op = xlen == 32 ? i.op32() : i.op64();
        final int rdRaw = (w >>> 7) & 31;
        final int rd = i.writesRd() && rdRaw != 0 ? rdRaw : SINK;
        final int rs1 = (w >>> 15) & 31;
        final int rs2 = (w >>> 20) & 31;
        switch (i.fmt()) {
            case R:
            case AMO:
                return pack(op, rd, rs1, rs2, 4, 0);
            case LR:
            case UNARY:
                return pack(op, rd, rs1, 0, 4, 0);
            case I:
            case LOAD:
                return pack(op, rd, rs1, 0, 4, w >> 20);
            case SHIFT: {
                final int shamt = (w >>> 20) & 0x3f;
                if (xlen == 32 && shamt >= 32) {
                    return illegal(w, 4);
                }
                return pack(op, rd, rs1, 0, 4, shamt);
            }
            case S:
                return pack(op, SINK, rs1, rs2, 4, immS(w));
            case B:
                return pack(op, SINK, rs1, rs2, 4, immB(w));
            case U:
                return pack(op, rd, 0, 0, 4, w & 0xfffff000);
            case J:
                return pack(op, rd, 0, 0, 4, immJ(w));
            case CSR:
                return pack(op, rdRaw == 0 ? SINK : rdRaw, rs1, 0, 4, w >>> 20);
            case CSRI:
                // the 5-bit zimm travels in imm bits 12-16 (rs1 stays 0: no false register dependency)
                return pack(op, rdRaw == 0 ? SINK : rdRaw, 0, 0, 4, w >>> 20 | rs1 << 12);
            default:
                return pack(op, SINK, 0, 0, 4, 0);
        }
    }

    static int immS(final int w) {
        return (w >> 25) << 5 | (w >>> 7) & 31;
    }

    static int immB(final int w) {
        return (w >> 31) << 12 | ((w >>> 7) & 1) << 11 | ((w >>> 25) & 0x3f) << 5 | ((w >>> 8) & 0xf) << 1;
    }

    static int immJ(final int w) {
        return (w >> 31) << 20 | ((w >>> 12) & 0xff) << 12 | ((w >>> 20) & 1) << 11 | ((w >>> 21) & 0x3ff) << 1;
    }

    // ---- encoders (also used by the compressed expansion and by Assembler) ----

    static int encR(final int opcode, final int f3, final int f7, final int rd, final int rs1, final int rs2) {
        return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
    }

    static int encI(final int opcode, final int f3, final int rd, final int rs1, final int imm) {
        return imm << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
    }

    static int encS(final int opcode, final int f3, final int rs1, final int rs2, final int imm) {
        return (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 31) << 7 | opcode;
    }

    static int encB(final int f3, final int rs1, final int rs2, final int imm) {
        return ((imm >> 12) & 1) << 31 | ((imm >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12
            | ((imm >> 1) & 0xf) << 8 | ((imm >> 11) & 1) << 7 | 0x63;
    }

    static int encJ(final int rd, final int imm) {
        return ((imm >> 20) & 1) << 31 | ((imm >> 1) & 0x3ff) << 21 | ((imm >> 11) & 1) << 20
            | ((imm >> 12) & 0xff) << 12 | rd << 7 | 0x6f;
    }

    // ---- disassembly ----

    private static final String[] ABI = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2",
        "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

    private static final Map<Integer, String> CSR_NAMES = new HashMap<>();

    static {
        final Object[] n = {0x300, "mstatus", 0x301, "misa", 0x304, "mie", 0x305, "mtvec", 0x340, "mscratch", 0x341, "mepc",
            0x342, "mcause", 0x343, "mtval", 0x344, "mip", 0xf11, "mvendorid", 0xf12, "marchid", 0xf13, "mimpid",
            0xf14, "mhartid", 0xb00, "mcycle", 0xb02, "minstret", 0xb80, "mcycleh", 0xb82, "minstreth", 0xc00, "cycle",
            0xc01, "time", 0xc02, "instret", 0xc80, "cycleh", 0xc81, "timeh", 0xc82, "instreth", 0x306, "mcounteren",
            0x320, "mcountinhibit", 0x302, "medeleg", 0x303, "mideleg", 0x180, "satp", 0x3a0, "pmpcfg0", 0x3b0, "pmpaddr0",
            0x310, "mstatush", 0xf15, "mconfigptr", 0x7a0, "tselect", 0x7a1, "tdata1", 0x7a2, "tdata2"};
        for (int i = 0; i < n.length; i += 2) {
            CSR_NAMES.put((Integer) n[i], (String) n[i + 1]);
        }
    }

    /**
     * Name of a CSR.
     *
     * @param csr CSR number, 0 to 4095
     * @return its name, or {@code 0x...} when unnamed
     */
    public static String csrName(final int csr) {
        final String s = CSR_NAMES.get(csr);
        return s != null ? s : String.format(Locale.ROOT, "0x%03x", csr);
    }

    /**
     * Disassembles one instruction, with branch and jump targets as absolute addresses.
     *
     * @param word instruction word (low 16 bits for a compressed one)
     * @param xlen 32 or 64
     * @param pc   address of the instruction, zero-extended
     * @return e.g. {@code addi a0, a0, 1}; {@code c.} prefix for compressed instructions;
     *     {@code unknown} for an illegal word
     */
    public static String disassemble(final int word, final int xlen, final long pc) {
        final boolean c = isCompressed(word);
        final int w = c ? Rvc.expand(word & 0xffff, xlen) : word;
        final Insn i = w == 0 ? null : find(w, xlen);
        if (i == null || (i.fmt() == Fmt.SHIFT && xlen == 32 && ((w >>> 25) & 1) != 0)) {
            return "unknown";
        }
        final String n = (c ? "c." : "") + i.name();
        final int rd = (w >>> 7) & 31;
        final int rs1 = (w >>> 15) & 31;
        final int rs2 = (w >>> 20) & 31;
        final long mask = xlen == 32 ? 0xffffffffL : -1L;
        switch (i.fmt()) {
            case R:
                return n + " " + ABI[rd] + ", " + ABI[rs1] + ", " + ABI[rs2];
            case AMO:
                return n + " " + ABI[rd] + ", " + ABI[rs2] + ", (" + ABI[rs1] + ")";
            case LR:
                return n + " " + ABI[rd] + ", (" + ABI[rs1] + ")";
            case UNARY:
                return n + " " + ABI[rd] + ", " + ABI[rs1];
            case I:
                return n + " " + ABI[rd] + ", " + ABI[rs1] + ", " + (w >> 20);
            case LOAD:
                return n + " " + ABI[rd] + ", " + (w >> 20) + "(" + ABI[rs1] + ")";
            case SHIFT:
                return n + " " + ABI[rd] + ", " + ABI[rs1] + ", " + ((w >>> 20) & 0x3f);
            case S:
                return n + " " + ABI[rs2] + ", " + immS(w) + "(" + ABI[rs1] + ")";
            case B:
                return n + " " + ABI[rs1] + ", " + ABI[rs2] + ", 0x" + Long.toHexString((pc + immB(w)) & mask);
            case U:
                return n + " " + ABI[rd] + ", 0x" + Integer.toHexString(w >>> 12);
            case J:
                return n + " " + ABI[rd] + ", 0x" + Long.toHexString((pc + immJ(w)) & mask);
            case CSR:
                return n + " " + ABI[rd] + ", " + csrName(w >>> 20) + ", " + ABI[rs1];
            case CSRI:
                return n + " " + ABI[rd] + ", " + csrName(w >>> 20) + ", " + rs1;
            default:
                return n;
        }
    }


}
