package dev.nicsim.riscv;

import java.util.ArrayList;
import java.util.List;

/**
 * An oracle for the decoder, written from the ISA manuals and not from {@link Isa}'s table: each
 * instruction is listed as the manual prints it (opcode, funct3, funct7/funct6/funct5/funct12 as
 * bit strings), and each compressed parcel is expanded by the manual's rules with immediates
 * given in the manual's own bit-order notation ({@code nzuimm[5:4|9:6|2|3]}).
 *
 * <p>Sources: "The RISC-V Instruction Set Manual, Volume I: Unprivileged ISA" 20191213,
 * chapter 24 "RV32/64G Instruction Set Listings" (Tables 24.2-24.4, the base, M, A, Zicsr and
 * Zifencei rows) and chapter 16 "C" (Tables 16.5-16.7, the RVC opcode map, and §16.3-16.6 for
 * each instruction's expansion and reserved/HINT code points); Volume II 20211203 §3.3.2 and
 * §3.3.3 for {@code mret} and {@code wfi}; "RISC-V Bit-Manipulation ISA-extensions" 1.0.0
 * chapter 3 for Zbb and Zbs.
 */
final class ManualOpcodeMap {
    private ManualOpcodeMap() {
    }

    /**
     * Operand formats, named after the manual's instruction formats. Which fields a format fixes:
     * U, J: opcode; I, LOAD, S, B, FENCE, CSR, CSRI: opcode and funct3; R: plus funct7 (bits
     * 31:25); SHIFT: plus funct6 (bits 31:26), and on RV32 bit 25 (shamt[5]) = 0; SHIFTW: plus
     * funct7 and a 5-bit shamt; AMO: plus funct5
     * (bits 31:27), aq and rl free; LR: AMO with rs2 = 0; UNARY: plus the 12-bit funct field
     * (bits 31:20, rs2 position included); SYS: every bit.
     */
    enum Format { U, J, I, LOAD, S, B, R, SHIFT, SHIFTW, AMO, LR, UNARY, FENCE, CSR, CSRI, SYS }

    /**
     * One instruction as the manual lists it.
     *
     * @param name    mnemonic
     * @param format  operand format
     * @param opcode  bits 6:0 as a 7-character binary string
     * @param funct3  bits 14:12 (3 characters), or "" for U/J/SYS
     * @param functHi funct7 / funct6 / funct5 / funct12 by format ("" when none), or for SYS the
     *                whole 32-bit word as binary
     * @param xlens   "32 64" or "64" (or "32"): the base ISAs that have it
     */
    record Entry(String name, Format format, String opcode, String funct3, String functHi, String xlens) {
        boolean in(final int xlen) {
            return xlens.contains(Integer.toString(xlen));
        }

        /** @return the bits this entry fixes */
        int mask(final int xlen) {
            switch (format) {
                case U: case J: return 0x7f;
                case I: case LOAD: case S: case B: case FENCE: case CSR: case CSRI: return 0x707f;
                case R: case SHIFTW: return 0xfe00707f;
                case SHIFT: return xlen == 32 ? 0xfe00707f : 0xfc00707f;
                case AMO: return 0xf800707f;
                case LR: return 0xf9f0707f;
                case UNARY: return 0xfff0707f;
                default: return 0xffffffff;
            }
        }

        /** @return the values of the fixed bits */
        int match() {
            if (format == Format.SYS) {
                return (int) Long.parseLong(functHi, 2);
            }
            int w = Integer.parseInt(opcode, 2);
            if (!funct3.isEmpty()) {
                w |= Integer.parseInt(funct3, 2) << 12;
            }
            if (!functHi.isEmpty()) {
                w |= Integer.parseInt(functHi, 2) << (32 - functHi.length());
            }
            return w;
        }

        boolean writesRd() {
            return format != Format.S && format != Format.B && format != Format.FENCE && format != Format.SYS;
        }

        boolean readsRs1() {
            return format != Format.U && format != Format.J && format != Format.FENCE && format != Format.SYS
                && format != Format.CSRI;
        }

        boolean readsRs2() {
            return format == Format.S || format == Format.B || format == Format.R || format == Format.AMO;
        }
    }

    private static final List<Entry> ENTRIES = new ArrayList<>();

    private static void add(final String name, final Format f, final String opcode, final String funct3, final String hi,
                            final String xlens) {
        ENTRIES.add(new Entry(name, f, opcode, funct3, hi, xlens));
    }

    static {
        final String both = "32 64";
        // Table 24.2, RV32I Base Instruction Set
        add("lui", Format.U, "0110111", "", "", both);
        add("auipc", Format.U, "0010111", "", "", both);
        add("jal", Format.J, "1101111", "", "", both);
        add("jalr", Format.LOAD, "1100111", "000", "", both);
        add("beq", Format.B, "1100011", "000", "", both);
        add("bne", Format.B, "1100011", "001", "", both);
        add("blt", Format.B, "1100011", "100", "", both);
        add("bge", Format.B, "1100011", "101", "", both);
        add("bltu", Format.B, "1100011", "110", "", both);
        add("bgeu", Format.B, "1100011", "111", "", both);
        add("lb", Format.LOAD, "0000011", "000", "", both);
        add("lh", Format.LOAD, "0000011", "001", "", both);
        add("lw", Format.LOAD, "0000011", "010", "", both);
        add("lbu", Format.LOAD, "0000011", "100", "", both);
        add("lhu", Format.LOAD, "0000011", "101", "", both);
        add("sb", Format.S, "0100011", "000", "", both);
        add("sh", Format.S, "0100011", "001", "", both);
        add("sw", Format.S, "0100011", "010", "", both);
        add("addi", Format.I, "0010011", "000", "", both);
        add("slti", Format.I, "0010011", "010", "", both);
        add("sltiu", Format.I, "0010011", "011", "", both);
        add("xori", Format.I, "0010011", "100", "", both);
        add("ori", Format.I, "0010011", "110", "", both);
        add("andi", Format.I, "0010011", "111", "", both);
        // RV32: funct7 0000000/0100000 and a 5-bit shamt; RV64 (Table 24.3): funct6 000000/010000
        add("slli", Format.SHIFT, "0010011", "001", "000000", both);
        add("srli", Format.SHIFT, "0010011", "101", "000000", both);
        add("srai", Format.SHIFT, "0010011", "101", "010000", both);
        add("add", Format.R, "0110011", "000", "0000000", both);
        add("sub", Format.R, "0110011", "000", "0100000", both);
        add("sll", Format.R, "0110011", "001", "0000000", both);
        add("slt", Format.R, "0110011", "010", "0000000", both);
        add("sltu", Format.R, "0110011", "011", "0000000", both);
        add("xor", Format.R, "0110011", "100", "0000000", both);
        add("srl", Format.R, "0110011", "101", "0000000", both);
        add("sra", Format.R, "0110011", "101", "0100000", both);
        add("or", Format.R, "0110011", "110", "0000000", both);
        add("and", Format.R, "0110011", "111", "0000000", both);
        add("fence", Format.FENCE, "0001111", "000", "", both);
        add("ecall", Format.SYS, "", "", "00000000000000000000000001110011", both);
        add("ebreak", Format.SYS, "", "", "00000000000100000000000001110011", both);
        // Table 24.3, RV64I
        add("lwu", Format.LOAD, "0000011", "110", "", "64");
        add("ld", Format.LOAD, "0000011", "011", "", "64");
        add("sd", Format.S, "0100011", "011", "", "64");
        add("addiw", Format.I, "0011011", "000", "", "64");
        add("slliw", Format.SHIFTW, "0011011", "001", "0000000", "64");
        add("srliw", Format.SHIFTW, "0011011", "101", "0000000", "64");
        add("sraiw", Format.SHIFTW, "0011011", "101", "0100000", "64");
        add("addw", Format.R, "0111011", "000", "0000000", "64");
        add("subw", Format.R, "0111011", "000", "0100000", "64");
        add("sllw", Format.R, "0111011", "001", "0000000", "64");
        add("srlw", Format.R, "0111011", "101", "0000000", "64");
        add("sraw", Format.R, "0111011", "101", "0100000", "64");
        // Zifencei, Zicsr
        add("fence.i", Format.FENCE, "0001111", "001", "", both);
        add("csrrw", Format.CSR, "1110011", "001", "", both);
        add("csrrs", Format.CSR, "1110011", "010", "", both);
        add("csrrc", Format.CSR, "1110011", "011", "", both);
        add("csrrwi", Format.CSRI, "1110011", "101", "", both);
        add("csrrsi", Format.CSRI, "1110011", "110", "", both);
        add("csrrci", Format.CSRI, "1110011", "111", "", both);
        // RV32M / RV64M
        final String[] m = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
        final String[] f3 = {"000", "001", "010", "011", "100", "101", "110", "111"};
        for (int i = 0; i < 8; i++) {
            add(m[i], Format.R, "0110011", f3[i], "0000001", both);
        }
        add("mulw", Format.R, "0111011", "000", "0000001", "64");
        add("divw", Format.R, "0111011", "100", "0000001", "64");
        add("divuw", Format.R, "0111011", "101", "0000001", "64");
        add("remw", Format.R, "0111011", "110", "0000001", "64");
        add("remuw", Format.R, "0111011", "111", "0000001", "64");
        // RV32A (funct3 010) / RV64A (funct3 011): funct5 in bits 31:27
        final String[][] a = {{"lr", "00010"}, {"sc", "00011"}, {"amoswap", "00001"}, {"amoadd", "00000"}, {"amoxor", "00100"},
            {"amoand", "01100"}, {"amoor", "01000"}, {"amomin", "10000"}, {"amomax", "10100"}, {"amominu", "11000"},
            {"amomaxu", "11100"}};
        for (final String[] e : a) {
            final Format f = e[0].equals("lr") ? Format.LR : Format.AMO;
            add(e[0] + ".w", f, "0101111", "010", e[1], both);
            add(e[0] + ".d", f, "0101111", "011", e[1], "64");
        }
        // "RISC-V Bit-Manipulation ISA-extensions" 1.0.0, chapter 3 (each instruction's encoding figure)
        add("andn", Format.R, "0110011", "111", "0100000", both);
        add("orn", Format.R, "0110011", "110", "0100000", both);
        add("xnor", Format.R, "0110011", "100", "0100000", both);
        add("clz", Format.UNARY, "0010011", "001", "011000000000", both);
        add("ctz", Format.UNARY, "0010011", "001", "011000000001", both);
        add("cpop", Format.UNARY, "0010011", "001", "011000000010", both);
        add("clzw", Format.UNARY, "0011011", "001", "011000000000", "64");
        add("ctzw", Format.UNARY, "0011011", "001", "011000000001", "64");
        add("cpopw", Format.UNARY, "0011011", "001", "011000000010", "64");
        add("max", Format.R, "0110011", "110", "0000101", both);
        add("maxu", Format.R, "0110011", "111", "0000101", both);
        add("min", Format.R, "0110011", "100", "0000101", both);
        add("minu", Format.R, "0110011", "101", "0000101", both);
        add("sext.b", Format.UNARY, "0010011", "001", "011000000100", both);
        add("sext.h", Format.UNARY, "0010011", "001", "011000000101", both);
        add("zext.h", Format.UNARY, "0110011", "100", "000010000000", "32");
        add("zext.h", Format.UNARY, "0111011", "100", "000010000000", "64");
        add("rol", Format.R, "0110011", "001", "0110000", both);
        add("ror", Format.R, "0110011", "101", "0110000", both);
        add("rolw", Format.R, "0111011", "001", "0110000", "64");
        add("rorw", Format.R, "0111011", "101", "0110000", "64");
        add("rori", Format.SHIFT, "0010011", "101", "011000", both);
        add("roriw", Format.SHIFTW, "0011011", "101", "0110000", "64");
        add("orc.b", Format.UNARY, "0010011", "101", "001010000111", both);
        add("rev8", Format.UNARY, "0010011", "101", "011010011000", "32");
        add("rev8", Format.UNARY, "0010011", "101", "011010111000", "64");
        add("bclr", Format.R, "0110011", "001", "0100100", both);
        add("bext", Format.R, "0110011", "101", "0100100", both);
        add("binv", Format.R, "0110011", "001", "0110100", both);
        add("bset", Format.R, "0110011", "001", "0010100", both);
        add("bclri", Format.SHIFT, "0010011", "001", "010010", both);
        add("bexti", Format.SHIFT, "0010011", "101", "010010", both);
        add("binvi", Format.SHIFT, "0010011", "001", "011010", both);
        add("bseti", Format.SHIFT, "0010011", "001", "001010", both);
        // Volume II §3.3.2, §3.3.3
        add("mret", Format.SYS, "", "", "00110000001000000000000001110011", both);
        add("wfi", Format.SYS, "", "", "00010000010100000000000001110011", both);
    }

    /** @return every instruction of the oracle */
    static List<Entry> entries() {
        return ENTRIES;
    }

    /**
     * The instruction a 32-bit word is, by the manual.
     *
     * @param w    word (bits 1:0 = 11)
     * @param xlen 32 or 64
     * @return the entry, or {@code null} when the word is no instruction of this XLEN
     * @throws IllegalStateException when two entries match (the oracle itself is wrong)
     */
    static Entry classify32(final int w, final int xlen) {
        Entry found = null;
        for (final Entry e : ENTRIES) {
            if (e.in(xlen) && (w & e.mask(xlen)) == e.match()) {
                if (found != null) {
                    throw new IllegalStateException(Integer.toHexString(w) + " matches " + found.name() + " and " + e.name());
                }
                found = e;
            }
        }
        return found;
    }

    // ---- the manual's encodings of the base formats (Volume I §2.2-2.3, Figures 2.3 and 2.4) ----

    static int r(final int opcode, final int f3, final int f7, final int rd, final int rs1, final int rs2) {
        return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
    }

    /** I-type: imm[11:0] in bits 31:20. */
    static int i(final int opcode, final int f3, final int rd, final int rs1, final int imm) {
        return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opcode;
    }

    /** S-type: imm[11:5] in bits 31:25, imm[4:0] in bits 11:7. */
    static int s(final int opcode, final int f3, final int rs1, final int rs2, final int imm) {
        return ((imm >>> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 0x1f) << 7 | opcode;
    }

    /** B-type: imm[12|10:5] in bits 31:25, imm[4:1|11] in bits 11:7. */
    static int b(final int f3, final int rs1, final int rs2, final int imm) {
        return ((imm >>> 12) & 1) << 31 | ((imm >>> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12
            | ((imm >>> 1) & 0xf) << 8 | ((imm >>> 11) & 1) << 7 | 0x63;
    }

    /** U-type: imm[31:12] in bits 31:12. */
    static int u(final int opcode, final int rd, final int imm) {
        return (imm & 0xfffff000) | rd << 7 | opcode;
    }

    /** J-type: imm[20|10:1|11|19:12] in bits 31:12. */
    static int j(final int rd, final int imm) {
        return ((imm >>> 20) & 1) << 31 | ((imm >>> 1) & 0x3ff) << 21 | ((imm >>> 11) & 1) << 20 | ((imm >>> 12) & 0xff) << 12
            | rd << 7 | 0x6f;
    }

    // ---- the RVC opcode map (Volume I Tables 16.5-16.7, §16.3-16.6) ----

    /**
     * Reads an immediate the way the manual writes it: the parcel's bits {@code hi} downwards hold
     * the immediate's bits in the order of {@code order}, e.g. bits 12:5 of C.ADDI4SPN hold
     * {@code nzuimm[5:4|9:6|2|3]}.
     */
    static int imm(final int c, final int hi, final String order) {
        int v = 0;
        int pos = hi;
        for (final String part : order.split("\\|")) {
            final String[] ab = part.split(":");
            final int top = Integer.parseInt(ab[0]);
            final int bottom = ab.length == 2 ? Integer.parseInt(ab[1]) : top;
            for (int bit = top; bit >= bottom; bit--) {
                v |= ((c >>> pos) & 1) << bit;
                pos--;
            }
        }
        return v;
    }

    private static int sext(final int v, final int signBit) {
        return v << (31 - signBit) >> (31 - signBit);
    }

    /**
     * The 32-bit instruction a 16-bit parcel stands for, by the manual.
     *
     * @param c    the parcel (bits 1:0 not 11)
     * @param xlen 32 or 64
     * @return the expansion, or 0 for a reserved or non-standard code point, and for the F/D
     *     loads and stores (this core has no floating point)
     */
    static int expand16(final int c, final int xlen) {
        final int op = c & 3;
        final int funct3 = (c >>> 13) & 7;
        final int rdFull = (c >>> 7) & 31; // rd/rs1 of the CI, CR, CSS formats
        final int rs2Full = (c >>> 2) & 31;
        final int rdPrime = 8 + ((c >>> 2) & 7); // rd'/rs2' (bits 4:2)
        final int rs1Prime = 8 + ((c >>> 7) & 7); // rs1'/rd' (bits 9:7)
        final boolean rv64 = xlen == 64;
        final int bit12 = (c >>> 12) & 1;
        if (op == 0) { // quadrant 0
            switch (funct3) {
                case 0: { // C.ADDI4SPN: addi rd', x2, nzuimm; nzuimm = 0 reserved
                    final int nzuimm = imm(c, 12, "5:4|9:6|2|3");
                    return nzuimm == 0 ? 0 : i(0x13, 0, rdPrime, 2, nzuimm);
                }
                case 2: // C.LW
                    return i(0x03, 2, rdPrime, rs1Prime, imm(c, 12, "5:3") | imm(c, 6, "2|6"));
                case 3: // C.FLW (RV32, no F) / C.LD (RV64)
                    return rv64 ? i(0x03, 3, rdPrime, rs1Prime, imm(c, 12, "5:3") | imm(c, 6, "7:6")) : 0;
                case 6: // C.SW
                    return s(0x23, 2, rs1Prime, rdPrime, imm(c, 12, "5:3") | imm(c, 6, "2|6"));
                case 7: // C.FSW (RV32) / C.SD (RV64)
                    return rv64 ? s(0x23, 3, rs1Prime, rdPrime, imm(c, 12, "5:3") | imm(c, 6, "7:6")) : 0;
                default: // C.FLD, reserved, C.FSD
                    return 0;
            }
        }
        final int imm6 = sext(imm(c, 12, "5") | imm(c, 6, "4:0"), 5);
        if (op == 1) { // quadrant 1
            switch (funct3) {
                case 0: // C.NOP / C.ADDI (rd = 0 or imm = 0: HINTs, legal)
                    return i(0x13, 0, rdFull, rdFull, imm6);
                case 1: // RV32 C.JAL; RV64 C.ADDIW (rd = 0 reserved)
                    if (!rv64) {
                        return j(1, cjOffset(c));
                    }
                    return rdFull == 0 ? 0 : i(0x1b, 0, rdFull, rdFull, imm6);
                case 2: // C.LI
                    return i(0x13, 0, rdFull, 0, imm6);
                case 3:
                    if (rdFull == 2) { // C.ADDI16SP, nzimm = 0 reserved
                        final int nzimm = sext(imm(c, 12, "9") | imm(c, 6, "4|6|8:7|5"), 9);
                        return nzimm == 0 ? 0 : i(0x13, 0, 2, 2, nzimm);
                    }
                    { // C.LUI, nzimm = 0 reserved (rd = 0: a HINT)
                        final int nzimm = sext(imm(c, 12, "17") | imm(c, 6, "16:12"), 17);
                        return nzimm == 0 ? 0 : u(0x37, rdFull, nzimm);
                    }
                case 4: {
                    final int funct2 = (c >>> 10) & 3;
                    if (funct2 < 2) { // C.SRLI, C.SRAI: RV32 shamt[5] = 1 is a non-standard code point
                        final int shamt = imm(c, 12, "5") | imm(c, 6, "4:0");
                        if (!rv64 && shamt >= 32) {
                            return 0;
                        }
                        return i(0x13, 5, rs1Prime, rs1Prime, shamt | (funct2 == 1 ? 0x400 : 0));
                    }
                    if (funct2 == 2) { // C.ANDI
                        return i(0x13, 7, rs1Prime, rs1Prime, imm6);
                    }
                    final int f = (c >>> 5) & 3;
                    if (bit12 == 0) { // C.SUB, C.XOR, C.OR, C.AND
                        final int[][] fs = {{0, 0x20}, {4, 0}, {6, 0}, {7, 0}};
                        return r(0x33, fs[f][0], fs[f][1], rs1Prime, rs1Prime, rdPrime);
                    }
                    if (rv64 && f == 0) { // C.SUBW
                        return r(0x3b, 0, 0x20, rs1Prime, rs1Prime, rdPrime);
                    }
                    if (rv64 && f == 1) { // C.ADDW
                        return r(0x3b, 0, 0, rs1Prime, rs1Prime, rdPrime);
                    }
                    return 0; // reserved
                }
                case 5: // C.J
                    return j(0, cjOffset(c));
                default: { // C.BEQZ, C.BNEZ
                    final int offset = sext(imm(c, 12, "8|4:3") | imm(c, 6, "7:6|2:1|5"), 8);
                    return b(funct3 == 6 ? 0 : 1, rs1Prime, 0, offset);
                }
            }
        }
        if (op == 2) { // quadrant 2
            switch (funct3) {
                case 0: { // C.SLLI (rd = 0 or shamt = 0: HINTs; RV32 shamt[5] = 1 non-standard)
                    final int shamt = imm(c, 12, "5") | imm(c, 6, "4:0");
                    return !rv64 && shamt >= 32 ? 0 : i(0x13, 1, rdFull, rdFull, shamt);
                }
                case 2: // C.LWSP, rd = 0 reserved
                    return rdFull == 0 ? 0 : i(0x03, 2, rdFull, 2, imm(c, 12, "5") | imm(c, 6, "4:2|7:6"));
                case 3: // C.FLWSP (RV32) / C.LDSP (RV64, rd = 0 reserved)
                    return !rv64 || rdFull == 0 ? 0 : i(0x03, 3, rdFull, 2, imm(c, 12, "5") | imm(c, 6, "4:3|8:6"));
                case 4:
                    if (bit12 == 0) {
                        if (rs2Full == 0) { // C.JR, rs1 = 0 reserved
                            return rdFull == 0 ? 0 : i(0x67, 0, 0, rdFull, 0);
                        }
                        return r(0x33, 0, 0, rdFull, 0, rs2Full); // C.MV (rd = 0: HINT)
                    }
                    if (rs2Full == 0) { // C.EBREAK / C.JALR
                        return rdFull == 0 ? 0x00100073 : i(0x67, 0, 1, rdFull, 0);
                    }
                    return r(0x33, 0, 0, rdFull, rdFull, rs2Full); // C.ADD (rd = 0: HINT)
                case 6: // C.SWSP
                    return s(0x23, 2, 2, rs2Full, imm(c, 12, "5:2|7:6"));
                case 7: // C.FSWSP (RV32) / C.SDSP (RV64)
                    return rv64 ? s(0x23, 3, 2, rs2Full, imm(c, 12, "5:3|8:6")) : 0;
                default: // C.FLDSP, C.FSDSP
                    return 0;
            }
        }
        return 0;
    }

    /** C.J / C.JAL: offset[11|4|9:8|10|6|7|3:1|5] in bits 12:2. */
    private static int cjOffset(final int c) {
        return sext(imm(c, 12, "11|4|9:8|10|6|7|3:1|5"), 11);
    }
}
