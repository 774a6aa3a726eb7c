package dev.nicsim.riscv;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tiny programmatic RISC-V assembler (32-bit encodings of RV64IM/RV32IM, a few Zicsr and
 * system instructions, labels with forward references) for programs built in Java: tests with
 * hand-derived cycle counts and JMH benchmarks, with no cross toolchain. Encodings follow
 * Volume I (20191213) chapter 24 ("RV32/64G Instruction Set Listings").
 *
 * <p>Usage: {@code new Assembler(0x1000).addi(A0, ZERO, 5).label("loop").addi(A0, A0, -1)
 * .bne(A0, ZERO, "loop").ecall().assemble()}.
 *
 * <p>Thread-safety: not thread-safe; one program per instance.
 */
public final class Assembler {
    /** Register numbers by ABI name. */
    public static final int ZERO = 0, RA = 1, SP = 2, GP = 3, TP = 4, T0 = 5, T1 = 6, T2 = 7, S0 = 8, S1 = 9,
        A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15, A6 = 16, A7 = 17, S2 = 18, S3 = 19, S4 = 20,
        S5 = 21, S6 = 22, S7 = 23, S8 = 24, S9 = 25, S10 = 26, S11 = 27, T3 = 28, T4 = 29, T5 = 30, T6 = 31;

    private final long base;
    private final List<Integer> words = new ArrayList<>();
    private final Map<String, Long> labels = new HashMap<>();
    private final List<Object[]> fixups = new ArrayList<>();

    /**
     * Creates an assembler.
     *
     * @param base address of the first instruction
     */
    public Assembler(final long base) {
        this.base = base;
    }

    /** @return address of the next instruction */
    public long here() {
        return base + 4L * words.size();
    }

    /**
     * Defines a label at the next instruction.
     *
     * @param name label
     * @return this
     * @throws IllegalArgumentException when defined twice
     */
    public Assembler label(final String name) {
        if (labels.putIfAbsent(name, here()) != null) {
            throw new IllegalArgumentException("label defined twice: " + name);
        }
        return this;
    }

    /**
     * Address of a defined label.
     *
     * @param name label
     * @return address
     * @throws IllegalArgumentException when undefined
     */
    public long address(final String name) {
        final Long a = labels.get(name);
        if (a == null) {
            throw new IllegalArgumentException("undefined label: " + name);
        }
        return a;
    }

    /**
     * Emits a raw instruction word.
     *
     * @param w the word
     * @return this
     */
    public Assembler word(final int w) {
        words.add(w);
        return this;
    }

    private Assembler r(final int opc, final int f3, final int f7, final int rd, final int rs1, final int rs2) {
        return word(Isa.encR(opc, f3, f7, rd, rs1, rs2));
    }

    private Assembler i(final int opc, final int f3, final int rd, final int rs1, final int imm) {
        if (imm < -2048 || imm > 2047) {
            throw new IllegalArgumentException("12-bit immediate out of range: " + imm);
        }
        return word(Isa.encI(opc, f3, rd, rs1, imm & 0xfff));
    }

    // ---- RV32I/RV64I ----
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler add(final int rd, final int rs1, final int rs2) { return r(0x33, 0, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler sub(final int rd, final int rs1, final int rs2) { return r(0x33, 0, 0x20, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler and(final int rd, final int rs1, final int rs2) { return r(0x33, 7, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler or(final int rd, final int rs1, final int rs2) { return r(0x33, 6, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler xor(final int rd, final int rs1, final int rs2) { return r(0x33, 4, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler sll(final int rd, final int rs1, final int rs2) { return r(0x33, 1, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler srl(final int rd, final int rs1, final int rs2) { return r(0x33, 5, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler sltu(final int rd, final int rs1, final int rs2) { return r(0x33, 3, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler slt(final int rd, final int rs1, final int rs2) { return r(0x33, 2, 0, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param imm -2048..2047 @return this */
    public Assembler addi(final int rd, final int rs1, final int imm) { return i(0x13, 0, rd, rs1, imm); }
    /** @param rd rd @param rs1 rs1 @param imm -2048..2047 @return this */
    public Assembler andi(final int rd, final int rs1, final int imm) { return i(0x13, 7, rd, rs1, imm); }
    /** @param rd rd @param rs1 rs1 @param imm -2048..2047 @return this */
    public Assembler ori(final int rd, final int rs1, final int imm) { return i(0x13, 6, rd, rs1, imm); }
    /** @param rd rd @param rs1 rs1 @param imm -2048..2047 @return this */
    public Assembler xori(final int rd, final int rs1, final int imm) { return i(0x13, 4, rd, rs1, imm); }
    /** @param rd rd @param rs1 rs1 @param sh 0..63 @return this */
    public Assembler slli(final int rd, final int rs1, final int sh) { return i(0x13, 1, rd, rs1, sh); }
    /** @param rd rd @param rs1 rs1 @param sh 0..63 @return this */
    public Assembler srli(final int rd, final int rs1, final int sh) { return i(0x13, 5, rd, rs1, sh); }
    /** @param rd rd @param rs1 rs1 @param sh 0..63 @return this */
    public Assembler srai(final int rd, final int rs1, final int sh) { return i(0x13, 5, rd, rs1, 0x400 | sh); }
    /** @param rd rd @param imm20 upper 20 bits @return this */
    public Assembler lui(final int rd, final int imm20) { return word(imm20 << 12 | rd << 7 | 0x37); }

    /**
     * Loads a 32-bit constant (lui + addi, or addi alone).
     *
     * @param rd  destination
     * @param imm value (sign-extended from 32 bits)
     * @return this
     */
    public Assembler li(final int rd, final int imm) {
        if (imm >= -2048 && imm <= 2047) {
            return addi(rd, ZERO, imm);
        }
        final int lo = imm << 20 >> 20;
        final int hi = (imm - lo) >>> 12;
        lui(rd, hi);
        return lo == 0 ? this : addi(rd, rd, lo);
    }

    /** @param rd rd @param off offset @param rs1 base @return this */
    public Assembler lb(final int rd, final int off, final int rs1) { return i(0x03, 0, rd, rs1, off); }
    /** @param rd rd @param off offset @param rs1 base @return this */
    public Assembler lbu(final int rd, final int off, final int rs1) { return i(0x03, 4, rd, rs1, off); }
    /** @param rd rd @param off offset @param rs1 base @return this */
    public Assembler lh(final int rd, final int off, final int rs1) { return i(0x03, 1, rd, rs1, off); }
    /** @param rd rd @param off offset @param rs1 base @return this */
    public Assembler lw(final int rd, final int off, final int rs1) { return i(0x03, 2, rd, rs1, off); }
    /** @param rd rd @param off offset @param rs1 base @return this */
    public Assembler lwu(final int rd, final int off, final int rs1) { return i(0x03, 6, rd, rs1, off); }
    /** @param rd rd @param off offset @param rs1 base @return this */
    public Assembler ld(final int rd, final int off, final int rs1) { return i(0x03, 3, rd, rs1, off); }

    private Assembler s(final int f3, final int rs2, final int off, final int rs1) {
        if (off < -2048 || off > 2047) {
            throw new IllegalArgumentException("12-bit offset out of range: " + off);
        }
        return word(Isa.encS(0x23, f3, rs1, rs2, off));
    }

    /** @param rs2 value @param off offset @param rs1 base @return this */
    public Assembler sb(final int rs2, final int off, final int rs1) { return s(0, rs2, off, rs1); }
    /** @param rs2 value @param off offset @param rs1 base @return this */
    public Assembler sh(final int rs2, final int off, final int rs1) { return s(1, rs2, off, rs1); }
    /** @param rs2 value @param off offset @param rs1 base @return this */
    public Assembler sw(final int rs2, final int off, final int rs1) { return s(2, rs2, off, rs1); }
    /** @param rs2 value @param off offset @param rs1 base @return this */
    public Assembler sd(final int rs2, final int off, final int rs1) { return s(3, rs2, off, rs1); }

    private Assembler b(final int f3, final int rs1, final int rs2, final String label) {
        fixups.add(new Object[] {words.size(), label, f3, rs1, rs2});
        return word(0);
    }

    /** @param rs1 rs1 @param rs2 rs2 @param label target @return this */
    public Assembler beq(final int rs1, final int rs2, final String label) { return b(0, rs1, rs2, label); }
    /** @param rs1 rs1 @param rs2 rs2 @param label target @return this */
    public Assembler bne(final int rs1, final int rs2, final String label) { return b(1, rs1, rs2, label); }
    /** @param rs1 rs1 @param rs2 rs2 @param label target @return this */
    public Assembler blt(final int rs1, final int rs2, final String label) { return b(4, rs1, rs2, label); }
    /** @param rs1 rs1 @param rs2 rs2 @param label target @return this */
    public Assembler bge(final int rs1, final int rs2, final String label) { return b(5, rs1, rs2, label); }
    /** @param rs1 rs1 @param rs2 rs2 @param label target @return this */
    public Assembler bltu(final int rs1, final int rs2, final String label) { return b(6, rs1, rs2, label); }
    /** @param rs1 rs1 @param rs2 rs2 @param label target @return this */
    public Assembler bgeu(final int rs1, final int rs2, final String label) { return b(7, rs1, rs2, label); }

    /** @param rd link register @param label target @return this */
    public Assembler jal(final int rd, final String label) {
        fixups.add(new Object[] {words.size(), label, -1, rd, 0});
        return word(0);
    }

    /** @param rd link register @param rs1 base @param off offset @return this */
    public Assembler jalr(final int rd, final int rs1, final int off) { return i(0x67, 0, rd, rs1, off); }

    /** @return this, after emitting {@code ret} (jalr x0, 0(ra)) */
    public Assembler ret() { return jalr(ZERO, RA, 0); }

    // ---- M ----
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler mul(final int rd, final int rs1, final int rs2) { return r(0x33, 0, 1, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler mulh(final int rd, final int rs1, final int rs2) { return r(0x33, 1, 1, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler mulhu(final int rd, final int rs1, final int rs2) { return r(0x33, 3, 1, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler div(final int rd, final int rs1, final int rs2) { return r(0x33, 4, 1, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler divu(final int rd, final int rs1, final int rs2) { return r(0x33, 5, 1, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler rem(final int rd, final int rs1, final int rs2) { return r(0x33, 6, 1, rd, rs1, rs2); }
    /** @param rd rd @param rs1 rs1 @param rs2 rs2 @return this */
    public Assembler remu(final int rd, final int rs1, final int rs2) { return r(0x33, 7, 1, rd, rs1, rs2); }

    // ---- system ----
    /** @return this, after {@code ecall} */
    public Assembler ecall() { return word(0x73); }
    /** @return this, after {@code ebreak} */
    public Assembler ebreak() { return word(0x100073); }
    /** @return this, after {@code fence} */
    public Assembler fence() { return word(0x0ff0000f); }
    /** @param rd rd @param csr CSR number @return this, after {@code csrrs rd, csr, x0} */
    public Assembler csrr(final int rd, final int csr) { return word(Isa.encI(0x73, 2, rd, 0, csr)); }
    /** @param csr CSR number @param rs1 source @return this, after {@code csrrw x0, csr, rs1} */
    public Assembler csrw(final int csr, final int rs1) { return word(Isa.encI(0x73, 1, 0, rs1, csr)); }

    // ---- Zbb, Zbs (and any other register, unary or shift-immediate row of the decoder table) ----

    /**
     * Emits an instruction of the decoder table by mnemonic: register-register ({@code andn rd,
     * rs1, rs2}), unary ({@code clz rd, rs1}: {@code operand} is ignored) or shift-immediate
     * ({@code rori rd, rs1, shamt}), e.g. {@code insn("rev8", 64, A0, A0, 0)}. Encodings from
     * {@link Isa}'s table ("RISC-V Bit-Manipulation ISA-extensions" 1.0.0 for Zbb and Zbs).
     *
     * @param mnemonic e.g. {@code andn}, {@code rev8}, {@code bseti}
     * @param xlen     32 or 64 (rev8 and zext.h are encoded differently in each)
     * @param rd       destination, 0 to 31
     * @param rs1      first source, 0 to 31
     * @param operand  rs2 (0 to 31) or shift amount (0 to XLEN - 1)
     * @return this
     * @throws IllegalArgumentException when no such row exists in this XLEN, or it has another format
     */
    public Assembler insn(final String mnemonic, final int xlen, final int rd, final int rs1, final int operand) {
        for (final Isa.Insn row : Isa.rows()) {
            if (row.name().equals(mnemonic) && (xlen == 32 ? row.op32() : row.op64()) >= 0) {
                switch (row.fmt()) {
                    case R: case SHIFT: return word(row.match() | (operand & 63) << 20 | rs1 << 15 | rd << 7);
                    case UNARY: return word(row.match() | rs1 << 15 | rd << 7);
                    default: throw new IllegalArgumentException(mnemonic + " is not a register, unary or shift-immediate instruction");
                }
            }
        }
        throw new IllegalArgumentException("no RV" + xlen + " instruction '" + mnemonic + "'");
    }

    /**
     * Resolves labels and returns the machine code.
     *
     * @return little-endian bytes, 4 per instruction
     * @throws IllegalArgumentException for an undefined label or an out-of-range offset
     */
    public byte[] assemble() {
        for (final Object[] f : fixups) {
            final int idx = (Integer) f[0];
            final long off = address((String) f[1]) - (base + 4L * idx);
            final int kind = (Integer) f[2];
            if (kind < 0) {
                if (off < -(1 << 20) || off >= 1 << 20) {
                    throw new IllegalArgumentException("jal offset out of range: " + off);
                }
                words.set(idx, Isa.encJ((Integer) f[3], (int) off));
            } else {
                if (off < -4096 || off >= 4096) {
                    throw new IllegalArgumentException("branch offset out of range: " + off);
                }
                words.set(idx, Isa.encB(kind, (Integer) f[3], (Integer) f[4], (int) off));
            }
        }
        final ByteArrayOutputStream b = new ByteArrayOutputStream(words.size() * 4);
        for (final int w : words) {
            b.write(w);
            b.write(w >>> 8);
            b.write(w >>> 16);
            b.write(w >>> 24);
        }
        return b.toByteArray();
    }
}
