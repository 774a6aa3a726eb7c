package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;

/**
 * A hart's machine-mode CSRs and its trap entry and return ("The RISC-V Instruction Set Manual"
 * Volume II 20211203, chapter 3): {@code mstatus} (MIE, MPIE; MPP reads as M), {@code misa}
 * (read-only: MXL, A, C, I, M), {@code mie}/{@code mip} (storage only, no interrupts are raised),
 * {@code mtvec}, {@code mepc}, {@code mcause}, {@code mtval}, {@code mscratch}, {@code mhartid},
 * {@code mvendorid}, {@code marchid}, {@code mimpid} (0), {@code mcycle}/{@code minstret} (and their
 * RV32 {@code h} halves) with the read-only aliases {@code cycle}, {@code time} (one tick per
 * cycle) and {@code instret}, and the debug trigger CSRs {@code tselect}/{@code tdata1-3} of a hart
 * with no triggers (RISC-V Debug Specification 1.0 §5.7: tselect reads 0, tdata1 reads type 0).
 * Values are XLEN bits sign-extended to 64.
 *
 * <p>Thread-safety: not thread-safe; belongs to one hart.
 */
final class CsrFile {
    private static final long MSTATUS_MIE = 1L << 3;
    private static final long MSTATUS_MPIE = 1L << 7;
    private static final long MSTATUS_MPP = 3L << 11;
    private static final long MIP_MASK = 0x888;

    private final int hartId;
    private final boolean rv32;
    private final int sextShift;
    private final long addrMask;
    private long mstatus;
    private long mtvec;
    long mepc;
    long mcause;
    long mtval;
    private long mscratch;
    private long mie;
    private long mip;
    private long tdata2;
    /** mcycle minus the hart's cycle count (a write to mcycle sets it). */
    private long cycleOffset;
    /** minstret minus the hart's retired-instruction count. */
    private long instretOffset;
    /** The last trap's pc, cause and mtval, and the instret at which it was taken (-1: none since reset or resume). */
    private long trapPc;
    private int trapCause;
    private long trapTval;
    private long lastTrapInstret = -1;
    /** The old value the last successful {@link #access} read (for rd). */
    long readValue;

    /**
     * Creates the CSRs at reset (all 0).
     *
     * @param hartId the value {@code mhartid} reads
     * @param xlen   32 or 64
     */
    CsrFile(final int hartId, final int xlen) {
        this.hartId = hartId;
        this.rv32 = xlen == 32;
        this.sextShift = 64 - xlen;
        this.addrMask = xlen == 32 ? 0xffffffffL : -1L;
    }

    private long sext(final long v) {
        return (v << sextShift) >> sextShift;
    }

    /**
     * Executes a Zicsr instruction (Volume I chapter 9): reads the old value into
     * {@link #readValue} and writes the new one unless the instruction does not write (CSRRS/CSRRC
     * with rs1 x0, the immediate forms with 0).
     *
     * @param op      CSRRW .. CSRRCI
     * @param csrImm  the decoded immediate: CSR number in bits 0-11, uimm in bits 12-16
     * @param rs1     the rs1 field
     * @param rs1Value rs1's value (register forms)
     * @param t       the instruction's issue cycle
     * @param n       instructions retired before it
     * @return false when the access is illegal (unknown CSR, write to a read-only one, an RV32-only
     *         CSR on RV64): the caller raises illegal-instruction
     */
    boolean access(final int op, final int csrImm, final int rs1, final long rs1Value, final long t, final long n) {
        final int csr = csrImm & 0xfff;
        final boolean imm = op >= CSRRWI;
        final long src = imm ? (csrImm >>> 12) & 31 : rs1Value;
        final boolean write = op == CSRRW || op == CSRRWI || (imm ? ((csrImm >>> 12) & 31) != 0 : rs1 != 0);
        if (write && (csr >>> 10) == 3) {
            return false;
        }
        final long mcycle = t + cycleOffset;
        final long minstret = n + instretOffset;
        final long old;
        switch (csr) {
            case 0x300: old = mstatus | MSTATUS_MPP; break;
            case 0x301: old = (rv32 ? 1L << 30 : 2L << 62) | 1 | 1 << 2 | 1 << 8 | 1 << 12; break;
            case 0x304: old = mie; break;
            case 0x305: old = mtvec; break;
            case 0x310: if (!rv32) { return false; } old = 0; break;
            case 0x340: old = mscratch; break;
            case 0x341: old = mepc; break;
            case 0x342: old = mcause; break;
            case 0x343: old = mtval; break;
            case 0x344: old = mip; break;
            case 0xf11: case 0xf12: case 0xf13: case 0xf15: old = 0; break;
            case 0x7a0: case 0x7a1: case 0x7a3: old = 0; break; // Sdtrig with no triggers: tselect 0, tdata1 type 0
            case 0x7a2: old = tdata2; break;
            case 0xf14: old = hartId; break;
            case 0xb00: case 0xc00: case 0xc01: old = mcycle; break;
            case 0xb02: case 0xc02: old = minstret; break;
            case 0xb80: case 0xc80: case 0xc81: if (!rv32) { return false; } old = mcycle >>> 32; break;
            case 0xb82: case 0xc82: if (!rv32) { return false; } old = minstret >>> 32; break;
            default: return false;
        }
        if (write) {
            final long v;
            if (op == CSRRW || op == CSRRWI) {
                v = src;
            } else if (op == CSRRS || op == CSRRSI) {
                v = old | src;
            } else {
                v = old & ~src;
            }
            switch (csr) {
                case 0x300: mstatus = v & (MSTATUS_MIE | MSTATUS_MPIE); break;
                case 0x304: mie = v & MIP_MASK; break;
                case 0x305: mtvec = sext((v & 2) != 0 ? v & ~3L : v) & addrMask; break;
                case 0x340: mscratch = sext(v); break;
                case 0x341: mepc = v & ~1L & addrMask; break;
                case 0x342: mcause = sext(v); break;
                case 0x343: mtval = sext(v); break;
                case 0x344: mip = v & MIP_MASK; break;
                case 0x7a2: tdata2 = sext(v); break;
                case 0xb00: cycleOffset = (rv32 ? (mcycle & ~0xffffffffL) | (v & 0xffffffffL) : v) - (t + 1); break;
                case 0xb02: instretOffset = (rv32 ? (minstret & ~0xffffffffL) | (v & 0xffffffffL) : v) - (n + 1); break;
                case 0xb80: cycleOffset = ((v << 32) | (mcycle & 0xffffffffL)) - (t + 1); break;
                case 0xb82: instretOffset = ((v << 32) | (minstret & 0xffffffffL)) - (n + 1); break;
                default: break; // misa, mstatush: WARL, writes ignored
            }
        }
        readValue = sext(old);
        return true;
    }

    /**
     * Trap entry (Volume II §3.1.6.1, §3.3.1): mepc, mcause and mtval are written, MPIE takes MIE
     * and MIE is cleared.
     *
     * @param pc    the trapping instruction's address
     * @param cause the exception cause
     * @param tval  the mtval value
     * @param n     instructions retired before it
     * @return the handler's address, {@code mtvec.BASE}
     */
    long trap(final long pc, final int cause, final long tval, final long n) {
        trapPc = pc;
        trapCause = cause;
        trapTval = tval;
        lastTrapInstret = n;
        mepc = pc;
        mcause = cause;
        mtval = sext(tval);
        mstatus = (mstatus & MSTATUS_MIE) != 0 ? (mstatus & ~MSTATUS_MIE) | MSTATUS_MPIE : mstatus & ~MSTATUS_MPIE;
        return mtvec & ~3L & addrMask;
    }

    /**
     * A second exception before any instruction retired after a trap: the handler itself faults
     * (or there is none), which the hart treats as fatal.
     *
     * @param n instructions retired before the new exception
     * @return the first trap as the fault to report, or {@code null} when an instruction retired since
     */
    Hart.Fault repeatedTrap(final long n) {
        return lastTrapInstret == n ? new Hart.Fault(trapPc, trapCause, trapTval) : null;
    }

    /** Forgets the last trap (the hart resumes after a halt). */
    void forgetTrap() {
        lastTrapInstret = -1;
    }

    /**
     * {@code mret} (Volume II §3.3.2): MIE takes MPIE, MPIE is set.
     *
     * @return the return address, mepc
     */
    long mret() {
        mstatus = (mstatus & MSTATUS_MPIE) != 0 ? mstatus | MSTATUS_MIE | MSTATUS_MPIE : (mstatus & ~MSTATUS_MIE) | MSTATUS_MPIE;
        return mepc;
    }
}
