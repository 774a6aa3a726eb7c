package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decoder and disassembler against {@link ManualOpcodeMap}, an encoding of the ISA manual's
 * opcode map written in the test, independently of {@link Isa}'s table: every row of the table
 * is an instruction of the manual for exactly the XLENs the manual gives it, every instruction of
 * the manual is a row, words built from the manual's fields with random operands decode to that
 * row (with the operands and immediates in their places) and disassemble to its mnemonic, and
 * every 16-bit parcel of both XLENs decodes as the manual's expansion of it.
 */
class IsaManualTest {
    private static final long PC = 0x8000_0000L;

    private static int opOf(final Isa.Insn row, final int xlen) {
        return xlen == 32 ? row.op32() : row.op64();
    }

    /** @return the table's rows by name and XLEN ("rev8/32"), only where the row exists in that XLEN */
    private static Map<String, Isa.Insn> rowsByName() {
        final Map<String, Isa.Insn> m = new HashMap<>();
        for (final Isa.Insn row : Isa.rows()) {
            for (final int xlen : new int[] {32, 64}) {
                if (opOf(row, xlen) >= 0) {
                    assertEquals(null, m.put(row.name() + "/" + xlen, row), "two RV" + xlen + " rows named " + row.name());
                }
            }
        }
        return m;
    }

    @Test
    void theTableHoldsExactlyTheManualsInstructions() {
        final Set<String> manual = new HashSet<>();
        for (final ManualOpcodeMap.Entry e : ManualOpcodeMap.entries()) {
            for (final int xlen : new int[] {32, 64}) {
                if (e.in(xlen)) {
                    assertTrue(manual.add(e.name() + "/" + xlen), "the oracle lists " + e.name() + " twice for RV" + xlen);
                }
            }
        }
        assertEquals(new java.util.TreeSet<>(manual), new java.util.TreeSet<>(rowsByName().keySet()),
            "instruction/XLEN pairs of the manual's map and of the table");
    }

    /**
     * For each instruction of the manual and each XLEN it has, 200 words from its fixed fields and
     * random registers and immediates: the decoded op is its row's, rd/rs1/rs2 are where the
     * format puts them (x0 and unused rd go to the sink; unread sources are 0, no false
     * dependency), the immediate is the one scattered into the word, and the disassembly starts
     * with the mnemonic.
     */
    @Test
    void wordsBuiltFromTheManualsFieldsDecodeToTheirRow() {
        final Map<String, Isa.Insn> rows = rowsByName();
        final SplittableRandom rnd = new SplittableRandom(18);
        for (final int xlen : new int[] {32, 64}) {
            for (final ManualOpcodeMap.Entry e : ManualOpcodeMap.entries()) {
                if (!e.in(xlen)) {
                    continue;
                }
                final Isa.Insn row = rows.get(e.name() + "/" + xlen);
                for (int k = 0; k < 200; k++) {
                    final int rd = rnd.nextInt(32);
                    final int rs1 = rnd.nextInt(32);
                    final int rs2 = rnd.nextInt(32);
                    final int free = rnd.nextInt();
                    int w;
                    int imm;
                    switch (e.format()) {
                        case U:
                            imm = free & 0xfffff000;
                            w = ManualOpcodeMap.u(0, rd, imm) | e.match();
                            break;
                        case J:
                            imm = (free << 11 >> 11) & ~1; // 21-bit signed, even
                            w = ManualOpcodeMap.j(rd, imm);
                            break;
                        case I: case LOAD:
                            imm = free << 20 >> 20;
                            w = ManualOpcodeMap.i(0, 0, rd, rs1, imm) | e.match();
                            break;
                        case S:
                            imm = free << 20 >> 20;
                            w = ManualOpcodeMap.s(0, 0, rs1, rs2, imm) | e.match();
                            break;
                        case B:
                            imm = (free << 19 >> 19) & ~1; // 13-bit signed, even
                            w = ManualOpcodeMap.b(0, rs1, rs2, imm) | e.match();
                            break;
                        case SHIFT:
                            imm = free & (xlen - 1);
                            w = ManualOpcodeMap.i(0, 0, rd, rs1, imm) | e.match();
                            break;
                        case SHIFTW:
                            imm = free & 31;
                            w = ManualOpcodeMap.i(0, 0, rd, rs1, imm) | e.match();
                            break;
                        case CSR:
                            imm = free & 0xfff;
                            w = ManualOpcodeMap.i(0, 0, rd, rs1, imm) | e.match();
                            break;
                        case CSRI: // zimm (the rs1 field) travels in imm bits 16:12 (Isa's packing)
                            imm = (free & 0xfff) | rs1 << 12;
                            w = ManualOpcodeMap.i(0, 0, rd, rs1, free & 0xfff) | e.match();
                            break;
                        default: // R, AMO, LR, UNARY, FENCE, SYS: registers (and aq/rl, fence bits) random
                            imm = 0;
                            w = e.match() | (ManualOpcodeMap.r(0, 0, free >>> 25, rd, rs1, rs2) & ~e.mask(xlen));
                            break;
                    }
                    final String what = "RV" + xlen + " " + e.name() + " " + Integer.toHexString(w);
                    assertEquals(e, ManualOpcodeMap.classify32(w, xlen), what + " (oracle)");
                    final long d = Isa.decode(w, xlen);
                    final int ctl = (int) d;
                    assertEquals(opOf(row, xlen), ctl & 0xff, what + " op");
                    final int wordRd = (w >>> 7) & 31;
                    assertEquals(e.writesRd() && wordRd != 0 ? wordRd : Isa.SINK, (ctl >>> 8) & 63, what + " rd");
                    assertEquals(e.readsRs1() ? (w >>> 15) & 31 : 0, (ctl >>> 14) & 31, what + " rs1");
                    assertEquals(e.readsRs2() ? (w >>> 20) & 31 : 0, (ctl >>> 19) & 31, what + " rs2");
                    assertEquals(4, (ctl >>> 24) & 7, what + " length");
                    assertEquals(imm, (int) (d >> 32), what + " imm");
                    final String dis = Isa.disassemble(w, xlen, PC);
                    assertEquals(e.name(), dis.split(" ")[0], what + " disassembly " + dis);
                }
            }
        }
    }

    /**
     * Random 32-bit words: the decoder calls a word illegal exactly when the manual's map has no
     * instruction for it, and otherwise names the manual's instruction.
     */
    @Test
    void randomWordsAreIllegalExactlyWhenTheManualHasNoInstruction() {
        final Map<String, Isa.Insn> rows = rowsByName();
        final SplittableRandom rnd = new SplittableRandom(19);
        for (final int xlen : new int[] {32, 64}) {
            for (int k = 0; k < 200_000; k++) {
                // random opcodes are mostly unassigned: half the words take a major opcode the table uses
                int w = rnd.nextInt() | 3;
                if ((k & 1) == 0) {
                    final int[] major = {0x03, 0x0f, 0x13, 0x17, 0x1b, 0x23, 0x2f, 0x33, 0x37, 0x3b, 0x63, 0x67, 0x6f, 0x73};
                    w = (w & ~0x7f) | major[rnd.nextInt(major.length)];
                }
                final ManualOpcodeMap.Entry e = ManualOpcodeMap.classify32(w, xlen);
                final int op = (int) Isa.decode(w, xlen) & 0xff;
                final String what = "RV" + xlen + " " + Integer.toHexString(w);
                if (e == null) {
                    assertEquals(Isa.ILLEGAL, op, what + " is no instruction in the manual");
                    assertEquals("unknown", Isa.disassemble(w, xlen, PC), what);
                } else {
                    assertEquals(opOf(rows.get(e.name() + "/" + xlen), xlen), op, what + " is " + e.name());
                }
            }
        }
    }

    /**
     * Every 16-bit parcel of both XLENs (49,152 each): illegal exactly where the manual reserves
     * the code point (or it is a floating-point one), otherwise decoded as the manual's 32-bit
     * expansion with length 2, and disassembled as {@code c.} and the expansion. Every compressed
     * instruction of the RVC map is reached (the counts by expanded mnemonic are checked).
     */
    @Test
    void everyCompressedParcelDecodesAsTheManualsExpansion() {
        for (final int xlen : new int[] {32, 64}) {
            final Map<String, Integer> byName = new HashMap<>();
            for (int c = 0; c < 0x10000; c++) {
                if ((c & 3) == 3) {
                    continue;
                }
                final int expanded = ManualOpcodeMap.expand16(c, xlen);
                final long d = Isa.decode(c, xlen);
                final String what = "RV" + xlen + " parcel " + Integer.toHexString(c);
                if (expanded == 0) {
                    assertEquals(Isa.ILLEGAL, (int) d & 0xff, what + " is reserved");
                    assertEquals("unknown", Isa.disassemble(c, xlen, PC), what);
                    continue;
                }
                final ManualOpcodeMap.Entry e = ManualOpcodeMap.classify32(expanded, xlen);
                assertNotNull(e, what + ": the oracle expands it to no instruction " + Integer.toHexString(expanded));
                byName.merge(e.name(), 1, Integer::sum);
                final long full = Isa.decode(expanded, xlen);
                assertEquals(full & ~(7L << 24) | 2L << 24, d, what + " as " + Integer.toHexString(expanded));
                assertEquals("c." + Isa.disassemble(expanded, xlen, PC), Isa.disassemble(c, xlen, PC), what);
            }
            // the RVC instructions, by the base instruction they expand to
            final String common = "addi lw sw jal beq bne slli jalr add srli srai andi sub xor or and lui ebreak";
            final String more = xlen == 64 ? " ld sd addiw subw addw" : "";
            for (final String n : (common + more).split(" ")) {
                assertTrue(byName.getOrDefault(n, 0) > 0, "RV" + xlen + ": no parcel expands to " + n);
            }
            assertEquals((common + more).split(" ").length, byName.size(), "RV" + xlen + " expansions " + byName.keySet());
        }
    }
}
