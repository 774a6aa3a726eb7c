package dev.nicsim.riscv;

import static dev.nicsim.riscv.BlockTranslator.HART;
import static dev.nicsim.riscv.BlockTranslator.aluName;
import static dev.nicsim.riscv.BlockTranslator.issueField;
import static dev.nicsim.riscv.Isa.*;
import static org.objectweb.asm.Opcodes.*;

import java.util.Arrays;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The bytecode of one translated block's {@code run(Hart, long)} method ({@link BlockTranslator}):
 * the entry that loads the guest registers the block uses into JVM locals, one code sequence per
 * instruction doing what {@link Hart}'s interpreter does for it (issue cycle, stall, ready tag,
 * issue count, the operation, the next issue cycle), the exits before an instruction handed back
 * to the interpreter, and the one exit that writes the locals back into the hart.
 *
 * <p>Thread-safety: not thread-safe; one emitter writes one method.
 */
final class BlockEmitter extends BlockCodeWriter {
    private final Hart h;
    private final List<long[]> insts;
    private final long endPc;
    private final Label exit = new Label();
    private final Label[] exitBefore;
    private final boolean[] used = new boolean[32];
    private final boolean[] written = new boolean[32];
    private final Label start = new Label();
    /** Per register: the index of its last producer so far in the block, or -1. */
    private final int[] producer = new int[32];
    /** Per instruction: its issue occupancy; and its result latency when static, else -1. */
    private final long[] occupancy;
    private final long[] staticLatency;

    /**
     * @param h     the translating hart (its timing words and settings are compiled in)
     * @param mv    the block class's run method
     * @param insts the block's instructions: {pc, decoded} each
     * @param endPc the address after the last instruction
     */
    BlockEmitter(final Hart h, final MethodVisitor mv, final List<long[]> insts, final long endPc) {
        super(mv);
        this.h = h;
        this.insts = insts;
        this.endPc = endPc;
        this.exitBefore = new Label[insts.size()];
        this.occupancy = new long[insts.size()];
        this.staticLatency = new long[insts.size()];
        Arrays.fill(producer, -1);
    }

    void emit() {
        for (final long[] in : insts) {
            final int rd = rdOf(in[1]);
            final int rs1 = rs1Of(in[1]);
            final int rs2 = rs2Of(in[1]);
            used[rs1] = true;
            used[rs2] = true;
            if (rd != SINK) {
                used[rd] = true;
                written[rd] = true;
            }
        }
        // entry: the hart's arrays and state into locals
        field(H, "x", "[J");
        mv.visitVarInsn(ASTORE, X);
        field(H, "stalls", "[J");
        mv.visitVarInsn(ASTORE, STALLS);
        field(H, "dataRegion", "L" + REGION + ";");
        mv.visitVarInsn(ASTORE, DREG);
        field(H, "yieldOnStall", "Z");
        mv.visitVarInsn(ISTORE, YIELD);
        field(H, "cycles", "J");
        mv.visitVarInsn(LSTORE, NOW);
        for (final int l : new int[] {T, R, EXIT_PC, A, O, VA, VB, ITER}) {
            mv.visitInsn(LCONST_0);
            mv.visitVarInsn(LSTORE, l);
        }
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, EXIT_IDX);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, FLAG);
        for (int r = 1; r < 32; r++) {
            if (used[r]) {
                registerSlot(r, val(r), false);
                registerSlot(Hart.READY + r, rdy(r), false);
            }
        }
        mv.visitLabel(start);
        boolean ended = false;
        for (int i = 0; i < insts.size(); i++) {
            ended = instruction(i, insts.get(i)[0], insts.get(i)[1]);
        }
        if (!ended) {
            exitAt(insts.size(), endPc);
        }
        mv.visitJumpInsn(GOTO, exit);
        // the exits before an instruction handed back to the interpreter
        for (int i = 0; i < insts.size(); i++) {
            if (exitBefore[i] != null) {
                mv.visitLabel(exitBefore[i]);
                exitAt(i, insts.get(i)[0]);
                mv.visitJumpInsn(GOTO, exit);
            }
        }
        // the one exit: locals back into the hart
        mv.visitLabel(exit);
        for (int r = 1; r < 32; r++) {
            if (written[r]) {
                registerSlot(r, val(r), true);
                registerSlot(Hart.READY + r, rdy(r), true);
            }
        }
        mv.visitVarInsn(ALOAD, H);
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitFieldInsn(PUTFIELD, HART, "cycles", "J");
        mv.visitVarInsn(LLOAD, ITER);
        mv.visitVarInsn(ILOAD, EXIT_IDX);
        mv.visitInsn(I2L);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, R);
        addToHartLong("instret", () -> mv.visitVarInsn(LLOAD, R));
        mv.visitVarInsn(ALOAD, H);
        mv.visitVarInsn(LLOAD, EXIT_PC);
        mv.visitFieldInsn(PUTFIELD, HART, "pc", "J");
        mv.visitVarInsn(LLOAD, R);
        mv.visitInsn(ICONST_1);
        mv.visitInsn(LSHL);
        final Label whole = new Label();
        final Label ret = new Label();
        mv.visitVarInsn(ILOAD, EXIT_IDX);
        iconst(insts.size());
        mv.visitJumpInsn(IF_ICMPGE, whole);
        mv.visitInsn(LCONST_1);
        mv.visitJumpInsn(GOTO, ret);
        mv.visitLabel(whole);
        mv.visitInsn(LCONST_0);
        mv.visitLabel(ret);
        mv.visitInsn(LOR);
        mv.visitInsn(LRETURN);
    }

    /**
     * The issue occupancy a block compiles in for an op (the model's, plus the differential
     * harness's sabotage cycles for ALU ops when set).
     *
     * @param h  the translating hart
     * @param op the op
     * @return cycles, at least 1
     */
    static long occupancy(final Hart h, final int op) {
        return ((h.timing[op] >>> 32) & 0xffff) + (aluName(op) != null && op < MUL ? BlockTranslator.sabotageAluOccupancyCycles : 0);
    }

    private Label exitBefore(final int i) {
        if (exitBefore[i] == null) {
            exitBefore[i] = new Label();
        }
        return exitBefore[i];
    }

    /** @return whether the instruction ends the block (sets EXIT_IDX and EXIT_PC) */
    private boolean instruction(final int i, final long pc, final long d) {
        final int ctl = (int) d;
        final int op = ctl & 0xff;
        final int rd = rdOf(d);
        final int rs1 = rs1Of(d);
        final int rs2 = rs2Of(d);
        final long imm = d >> 32;
        final int len = lengthOf(d);
        final long tm = h.timing[op];
        final long occ = occupancy(h, op);
        final int acc = (int) (tm >>> 48);
        final long alignMask = acc >>> 8;
        final boolean load = op >= LB && op <= LD;
        final boolean store = op >= SB && op <= SD;
        final int size = store ? 1 << (op - SB) : 0;
        // 0. entering another L1I line: the interpreter's fetch-window step (a thread that yields
        // on stalls gives its slot away on a miss, and the block ends before the instruction)
        if (i > 0 && h.fetch.lineShift < 12 && pc >>> h.fetch.lineShift != insts.get(i - 1)[0] >>> h.fetch.lineShift) {
            enterLine(pc, exitBefore(i));
        }
        // 1. the fast-path test of a load or store: anything else goes back to the interpreter
        if (load || store) {
            pushVal(rs1);
            mv.visitLdcInsn(imm);
            mv.visitInsn(LADD);
            mv.visitLdcInsn(h.addrMask);
            mv.visitInsn(LAND);
            mv.visitVarInsn(LSTORE, A);
            mv.visitVarInsn(LLOAD, A);
            regionField("base", "J");
            mv.visitInsn(LSUB);
            mv.visitVarInsn(LSTORE, O);
            mv.visitVarInsn(LLOAD, O);
            jumpAgainstZero(IFLT, exitBefore(i));
            if (alignMask != 0) {
                mv.visitVarInsn(LLOAD, A);
                mv.visitLdcInsn(alignMask);
                mv.visitInsn(LAND);
                jumpAgainstZero(IFNE, exitBefore(i));
            }
            if (load) {
                final Label fast = new Label();
                mv.visitInsn(ICONST_0);
                mv.visitVarInsn(ISTORE, FLAG);
                offsetAgainst("fastLast8", IFLE, fast);
                offsetAgainst("cachedLast8", IFGT, exitBefore(i));
                mv.visitInsn(ICONST_1);
                mv.visitVarInsn(ISTORE, FLAG);
                mv.visitLabel(fast);
            } else {
                // o <= storeLast1 + 1 - size, the interpreter's test (o + size could overflow)
                mv.visitVarInsn(LLOAD, O);
                regionField("storeLast1", "J");
                mv.visitLdcInsn(1L - size);
                mv.visitInsn(LADD);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(IFGT, exitBefore(i));
            }
        }
        occupancy[i] = occ;
        staticLatency[i] = load || (h.divDataDependent && op >= DIV && op <= REMUW && op != MULW) ? -1 : ((int) tm) >>> 4;
        // 2. issue: the later of now and the operands' ready cycles; a stall is charged to the producer's class
        stall(i, surelyReady(i, rs1) ? 0 : rs1, surelyReady(i, rs2) ? 0 : rs2);
        if (rd != SINK) {
            producer[rd] = i;
        }
        // 3. issue count, result ready tag
        if (h.countIssues) {
            final String f = issueField(op, tm);
            if (f != null) {
                addToHartLong(f, () -> mv.visitInsn(LCONST_1));
            }
        }
        if (rd != SINK) {
            mv.visitVarInsn(LLOAD, T);
            iconst(4);
            mv.visitInsn(LSHL);
            mv.visitLdcInsn((long) (int) tm);
            mv.visitInsn(LADD);
            mv.visitVarInsn(LSTORE, rdy(rd));
        }
        // 4. the operation
        final String alu = aluName(op);
        final long link = ((pc + len) << h.sextShift) >> h.sextShift;
        if (alu != null) {
            pushVal(rs1);
            pushVal(rs2);
            mv.visitLdcInsn(imm);
            mv.visitMethodInsn(INVOKESTATIC, OPS, alu, "(JJJ)J", false);
            storeVal(rd);
        } else if (op == LUI) {
            mv.visitLdcInsn(imm);
            storeVal(rd);
        } else if (op == AUIPC) {
            mv.visitLdcInsn(((pc + imm) << h.sextShift) >> h.sextShift);
            storeVal(rd);
        } else if (load) {
            final int sh = acc & 63;
            regionField("bytes", "[B");
            mv.visitVarInsn(LLOAD, O);
            mv.visitInsn(L2I);
            mv.visitMethodInsn(INVOKESTATIC, OPS, "readLong", "([BI)J", false);
            iconst(sh);
            mv.visitInsn(LSHL);
            iconst(sh);
            mv.visitInsn((acc & 64) != 0 ? LUSHR : LSHR);
            storeVal(rd);
            final Label flat = new Label();
            mv.visitVarInsn(ILOAD, FLAG);
            mv.visitJumpInsn(IFEQ, flat);
            mv.visitVarInsn(ALOAD, DREG);
            mv.visitVarInsn(LLOAD, A);
            iconst(sh);
            mv.visitVarInsn(LLOAD, T);
            mv.visitMethodInsn(INVOKESTATIC, OPS, "cachedLoadExtra", "(L" + REGION + ";JIJ)J", false);
            if (rd != SINK) {
                mv.visitVarInsn(LLOAD, rdy(rd));
                mv.visitInsn(LADD);
                mv.visitVarInsn(LSTORE, rdy(rd));
            } else {
                mv.visitInsn(POP2);
            }
            mv.visitLabel(flat);
        } else if (store) {
            mv.visitVarInsn(ALOAD, DREG);
            mv.visitVarInsn(LLOAD, O);
            mv.visitInsn(L2I);
            iconst(size);
            pushVal(rs2);
            mv.visitMethodInsn(INVOKEVIRTUAL, REGION, "put", "(IIJ)V", false);
        } else if (op >= DIV && op <= REMUW && op != MULW) {
            pushVal(rs1);
            mv.visitVarInsn(LSTORE, VA);
            pushVal(rs2);
            mv.visitVarInsn(LSTORE, VB);
            iconst(op);
            mv.visitVarInsn(LLOAD, VA);
            mv.visitVarInsn(LLOAD, VB);
            mv.visitMethodInsn(INVOKESTATIC, ALU, "divide", "(IJJ)J", false);
            storeVal(rd);
            if (h.divDataDependent && rd != SINK) {
                mv.visitVarInsn(LLOAD, T);
                iconst(op);
                mv.visitVarInsn(LLOAD, VA);
                mv.visitVarInsn(LLOAD, VB);
                mv.visitMethodInsn(INVOKESTATIC, ALU, "divCycles", "(IJJ)I", false);
                mv.visitInsn(I2L);
                mv.visitInsn(LADD);
                iconst(4);
                mv.visitInsn(LSHL);
                mv.visitLdcInsn((long) TimingClass.DIV.ordinal());
                mv.visitInsn(LOR);
                mv.visitVarInsn(LSTORE, rdy(rd));
            }
        } else if (op >= ANDN && op <= BSETI) {
            iconst(op);
            pushVal(rs1);
            pushVal(rs2);
            iconst((int) imm);
            iconst(h.xlen);
            mv.visitMethodInsn(INVOKESTATIC, ALU, "bitManipulation", "(IJJII)J", false);
            storeVal(rd);
        } else if (op >= BEQ && op <= BGEU) {
            final int k = op - BEQ;
            pushVal(rs1);
            if (k >= 4) {
                mv.visitLdcInsn(Long.MIN_VALUE);
                mv.visitInsn(LADD);
            }
            pushVal(rs2);
            if (k >= 4) {
                mv.visitLdcInsn(Long.MIN_VALUE);
                mv.visitInsn(LADD);
            }
            mv.visitInsn(LCMP);
            final Label taken = new Label();
            final Label join = new Label();
            final int[] conds = {IFEQ, IFNE, IFLT, IFGE, IFLT, IFGE};
            mv.visitJumpInsn(conds[k], taken);
            mv.visitLdcInsn(pc + len);
            mv.visitVarInsn(LSTORE, EXIT_PC);
            mv.visitInsn(ICONST_0);
            mv.visitVarInsn(ISTORE, FLAG);
            mv.visitJumpInsn(GOTO, join);
            mv.visitLabel(taken);
            mv.visitLdcInsn((pc + imm) & h.addrMask);
            mv.visitVarInsn(LSTORE, EXIT_PC);
            mv.visitInsn(ICONST_1);
            mv.visitVarInsn(ISTORE, FLAG);
            mv.visitLabel(join);
            field(H, "predictor", "L" + PREDICTOR + ";");
            mv.visitLdcInsn(pc);
            mv.visitVarInsn(ILOAD, FLAG);
            mv.visitVarInsn(LLOAD, EXIT_PC);
            mv.visitMethodInsn(INVOKEVIRTUAL, PREDICTOR, "branch", "(JZJ)I", false);
            return endWithPenalty(i, occ);
        } else if (op == JAL || op == JALR) {
            if (op == JAL) {
                mv.visitLdcInsn((pc + imm) & h.addrMask);
            } else {
                pushVal(rs1);
                mv.visitLdcInsn(imm);
                mv.visitInsn(LADD);
                mv.visitLdcInsn(~1L & h.addrMask);
                mv.visitInsn(LAND);
            }
            mv.visitVarInsn(LSTORE, EXIT_PC);
            mv.visitLdcInsn(link);
            storeVal(rd);
            field(H, "predictor", "L" + PREDICTOR + ";");
            mv.visitLdcInsn(pc);
            mv.visitVarInsn(LLOAD, EXIT_PC);
            iconst(rd == 1 || rd == 5 ? 1 : 0);
            iconst(op == JALR && rd == SINK && (rs1 == 1 || rs1 == 5) ? 1 : 0);
            mv.visitLdcInsn(pc + len);
            mv.visitMethodInsn(INVOKEVIRTUAL, PREDICTOR, "jump", "(JJZZJ)I", false);
            return endWithPenalty(i, occ);
        } else {
            throw new IllegalStateException("block translator: op " + op + " not translatable");
        }
        // 5. the next issue cycle
        mv.visitVarInsn(LLOAD, T);
        mv.visitLdcInsn(occ);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, NOW);
        if (store) {
            // a page with decoded code or the tohost watch: the store hook; the block ends after
            // the store when it asked to halt or dropped translations
            final Label plain = new Label();
            regionField("pages", "[L" + PAGE + ";");
            mv.visitVarInsn(LLOAD, O);
            iconst(12);
            mv.visitInsn(LUSHR);
            mv.visitInsn(L2I);
            mv.visitInsn(AALOAD);
            mv.visitJumpInsn(IFNULL, plain);
            field(H, "lsu", "L" + LSU + ";");
            mv.visitVarInsn(ALOAD, DREG);
            mv.visitVarInsn(LLOAD, O);
            iconst(size);
            mv.visitVarInsn(LLOAD, A);
            mv.visitMethodInsn(INVOKEVIRTUAL, LSU, "storeFromBlock", "(L" + REGION + ";JIJ)Z", false);
            mv.visitJumpInsn(IFEQ, plain);
            exitAt(i + 1, pc + len);
            mv.visitJumpInsn(GOTO, exit);
            mv.visitLabel(plain);
        }
        return false;
    }

    /**
     * A control transfer's end: now = t + occupancy + the penalty on the stack (int); back to the
     * start when the target is the block's own start and another pass fits the room, else exit.
     */
    private boolean endWithPenalty(final int i, final long occ) {
        mv.visitInsn(I2L);
        mv.visitVarInsn(LLOAD, T);
        mv.visitInsn(LADD);
        mv.visitLdcInsn(occ);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, NOW);
        iconst(i + 1);
        mv.visitVarInsn(ISTORE, EXIT_IDX);
        final long len = insts.size();
        mv.visitVarInsn(LLOAD, EXIT_PC);
        mv.visitLdcInsn(insts.get(0)[0]);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFNE, exit);
        mv.visitVarInsn(LLOAD, ITER);
        mv.visitLdcInsn(2 * len);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LLOAD, ROOM);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGT, exit);
        // a bounded run (BoundedRun): the next pass's last instruction must issue before the bound
        long span = 0;
        for (int k = 0; k < i; k++) {
            span += occupancy[k];
        }
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitLdcInsn(span);
        mv.visitInsn(LADD);
        field(H, "bounded", "Ldev/nicsim/riscv/BoundedRun;");
        mv.visitFieldInsn(GETFIELD, "dev/nicsim/riscv/BoundedRun", "issueLimit", "J");
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGE, exit);
        if (h.fetch.lineShift < 12 && insts.get(0)[0] >>> h.fetch.lineShift != insts.get(i)[0] >>> h.fetch.lineShift) {
            enterLine(insts.get(0)[0], exit);
        }
        mv.visitVarInsn(LLOAD, ITER);
        mv.visitLdcInsn(len);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, ITER);
        mv.visitJumpInsn(GOTO, start);
        return true;
    }

    /**
     * The fetch-window step at pc ({@link FetchUnit#enterLine}): its L1I miss cycles are added to
     * now; a thread that yields on stalls instead gives its slot away until the line comes, as
     * the interpreter does (readyAt = now + miss, yielded), and goes to {@code out}.
     */
    private void enterLine(final long pc, final Label out) {
        final Label add = new Label();
        final Label hit = new Label();
        field(H, "fetch", "L" + FETCH + ";");
        mv.visitLdcInsn(pc);
        mv.visitMethodInsn(INVOKEVIRTUAL, FETCH, "enterLine", "(J)I", false);
        mv.visitInsn(I2L);
        mv.visitVarInsn(LSTORE, VA);
        mv.visitVarInsn(LLOAD, VA);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFEQ, hit);
        mv.visitVarInsn(ILOAD, YIELD);
        mv.visitJumpInsn(IFEQ, add);
        mv.visitVarInsn(ALOAD, H);
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitVarInsn(LLOAD, VA);
        mv.visitInsn(LADD);
        mv.visitFieldInsn(PUTFIELD, HART, "readyAt", "J");
        setYielded();
        mv.visitJumpInsn(GOTO, out);
        mv.visitLabel(add);
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitVarInsn(LLOAD, VA);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, NOW);
        mv.visitLabel(hit);
    }

    /**
     * Whether an operand is ready whatever happened before the block: its producer is earlier in
     * this pass, with a static latency no longer than the issue occupancies from the producer up
     * to this instruction (each instruction issues at least its predecessor's occupancy later).
     */
    private boolean surelyReady(final int i, final int rs) {
        final int p = rs == 0 ? -1 : producer[rs];
        if (p < 0 || staticLatency[p] < 0) {
            return false;
        }
        long distance = 0;
        for (int k = p; k < i; k++) {
            distance += occupancy[k];
        }
        return staticLatency[p] <= distance;
    }

    private void stall(final int i, final int rs1, final int rs2) {
        if (rs1 == 0 && rs2 == 0) {
            mv.visitVarInsn(LLOAD, NOW);
            mv.visitVarInsn(LSTORE, T);
            return;
        }
        if (rs1 != 0 && rs2 != 0) {
            mv.visitVarInsn(LLOAD, rdy(rs1));
            mv.visitVarInsn(LLOAD, rdy(rs2));
            mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "max", "(JJ)J", false);
        } else {
            mv.visitVarInsn(LLOAD, rdy(rs1 != 0 ? rs1 : rs2));
        }
        mv.visitVarInsn(LSTORE, R);
        final Label stall = new Label();
        final Label charge = new Label();
        final Label done = new Label();
        readyCycle();
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGT, stall);
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitVarInsn(LSTORE, T);
        mv.visitJumpInsn(GOTO, done);
        mv.visitLabel(stall);
        mv.visitVarInsn(ILOAD, YIELD);
        mv.visitJumpInsn(IFEQ, charge);
        // a thread that yields on stalls: what the interpreter does at this instruction (the stall
        // charged, readyAt, yielded), and the block ends before it
        chargeStall();
        mv.visitVarInsn(ALOAD, H);
        readyCycle();
        mv.visitFieldInsn(PUTFIELD, HART, "readyAt", "J");
        setYielded();
        mv.visitJumpInsn(GOTO, exitBefore(i));
        mv.visitLabel(charge);
        chargeStall();
        readyCycle();
        mv.visitVarInsn(LSTORE, T);
        mv.visitLabel(done);
    }

    /** {@code hart.field += addend}, the addend a long that {@code pushAddend} leaves on the stack. */
    private void addToHartLong(final String field, final Runnable pushAddend) {
        mv.visitVarInsn(ALOAD, H);
        mv.visitInsn(DUP);
        mv.visitFieldInsn(GETFIELD, HART, field, "J");
        pushAddend.run();
        mv.visitInsn(LADD);
        mv.visitFieldInsn(PUTFIELD, HART, field, "J");
    }

    /** {@code hart.yielded = true}. */
    private void setYielded() {
        mv.visitVarInsn(ALOAD, H);
        mv.visitInsn(ICONST_1);
        mv.visitFieldInsn(PUTFIELD, HART, "yielded", "Z");
    }

    /** stalls[class of R] += cycle of R - now. */
    private void chargeStall() {
        mv.visitVarInsn(ALOAD, STALLS);
        mv.visitVarInsn(LLOAD, R);
        mv.visitInsn(L2I);
        iconst(15);
        mv.visitInsn(IAND);
        mv.visitInsn(DUP2);
        mv.visitInsn(LALOAD);
        readyCycle();
        mv.visitVarInsn(LLOAD, NOW);
        mv.visitInsn(LSUB);
        mv.visitInsn(LADD);
        mv.visitInsn(LASTORE);
    }
}
