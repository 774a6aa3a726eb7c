package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Isa#disassemble} text per instruction format, for words encoded by hand from the ISA
 * manual's base formats (Volume I, chapter 2 "RV32I Base Integer Instruction Set", and chapter 9
 * "Zicsr"): register fields, immediates, shift amounts, branch and jump targets (absolute, masked to
 * XLEN), CSR names and unnamed CSR numbers.
 */
class DisassemblyTextTest {
    @Test
    void eachFormatNamesItsFields() {
        // lw a0, 8(sp): imm 8 << 20 | rs1 2 << 15 | funct3 2 << 12 | rd 10 << 7 | 0x03
        assertEquals("lw a0, 8(sp)", Isa.disassemble(0x00812503, 64, 0));
        // lw a0, -4(sp): imm 0xffc
        assertEquals("lw a0, -4(sp)", Isa.disassemble(0xffc12503, 64, 0));
        // add a0, a1, a2: rs2 12 << 20 | rs1 11 << 15 | rd 10 << 7 | 0x33
        assertEquals("add a0, a1, a2", Isa.disassemble(0x00c58533, 64, 0));
        // slli a0, a1, 3 and srai a0, a1, 3 (funct6 0x10 above the 6-bit shamt)
        assertEquals("slli a0, a1, 3", Isa.disassemble(0x00359513, 64, 0));
        assertEquals("srai a0, a1, 3", Isa.disassemble(0x4035d513, 64, 0));
        // lui a0, 0x12345
        assertEquals("lui a0, 0x12345", Isa.disassemble(0x12345537, 64, 0));
    }

    @Test
    void branchAndJumpTargetsAreAbsoluteAndWrapAtXlen() {
        // beq a0, a1, +16: imm[4:1] = 8 in bits 11:8, rs2 11, rs1 10, funct3 0, 0x63
        assertEquals("beq a0, a1, 0x1010", Isa.disassemble(0x00b50863, 64, 0x1000));
        // on RV32 the target wraps: 0xfffffff8 + 16 = 0x8
        assertEquals("beq a0, a1, 0x8", Isa.disassemble(0x00b50863, 32, 0xfffffff8L));
        // jal ra, +0x800: imm[11] in bit 20, rd 1, 0x6f
        assertEquals("jal ra, 0x2800", Isa.disassemble(0x001000ef, 64, 0x2000));
        assertEquals("jal ra, 0x7f8", Isa.disassemble(0x001000ef, 32, 0xfffffff8L));
    }

    @Test
    void csrsByNameOrNumber() {
        // csrrs a0, mstatus (0x300), zero: csr << 20 | rs1 0 | funct3 2 | rd 10 | 0x73
        assertEquals("csrrs a0, mstatus, zero", Isa.disassemble(0x30002573, 64, 0));
        // csrrw a0, 0x7c0, a1: an unnamed (custom) CSR prints its number
        assertEquals("csrrw a0, 0x7c0, a1", Isa.disassemble(0x7c059573, 64, 0));
        // csrrwi a0, mscratch (0x340), 5: uimm 5 in the rs1 field, funct3 5
        assertEquals("csrrwi a0, mscratch, 5", Isa.disassemble(0x3402d573, 64, 0));
        assertEquals("mscratch", Isa.csrName(0x340));
        assertEquals("0x7c0", Isa.csrName(0x7c0));
    }
}
