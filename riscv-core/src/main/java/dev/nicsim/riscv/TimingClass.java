package dev.nicsim.riscv;

/**
 * What a cycle model charges an instruction for: each execution op of {@link Isa} belongs to one
 * class, and a {@link CycleModel} gives each class a result latency and an issue occupancy.
 *
 * <p>Thread-safety: immutable.
 */
public enum TimingClass {
    /** Integer computation (RV32I/RV64I register and immediate ops, lui, auipc). */
    ALU,
    /** Conditional branch. */
    BRANCH,
    /** jal. */
    JAL,
    /** jalr. */
    JALR,
    /** Word and double-word loads (lw, lwu, ld). */
    LOAD,
    /** Byte and half-word loads (lb, lbu, lh, lhu). */
    LOAD_SUBWORD,
    /** Stores. */
    STORE,
    /** mul, mulw (low half of the product). */
    MUL,
    /** mulh, mulhsu, mulhu (high half). */
    MULH,
    /** div, divu, rem, remu and their W forms. */
    DIV,
    /** Zicsr instructions. */
    CSR,
    /** lr, sc and AMOs. */
    AMO,
    /** fence, fence.i. */
    FENCE,
    /** ecall, ebreak, mret, wfi (and trap entry). */
    SYSTEM
}
