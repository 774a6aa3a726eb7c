package dev.nicsim.riscv;

import static dev.nicsim.riscv.BlockTranslator.HART;
import static dev.nicsim.riscv.Isa.SINK;
import static org.objectweb.asm.Opcodes.*;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The JVM locals of a translated block's {@code run(Hart, long)} method and the short bytecode
 * sequences {@link BlockEmitter} writes over them again and again (constants, guest register
 * locals, the data region's fields, the block's exit).
 *
 * <p>Thread-safety: not thread-safe; one writer writes one method.
 */
abstract class BlockCodeWriter {
    static final String REGION = "dev/nicsim/riscv/MemoryRegion";
    static final String OPS = "dev/nicsim/riscv/BlockOps";
    static final String ALU = "dev/nicsim/riscv/Alu";
    static final String PREDICTOR = "dev/nicsim/riscv/BranchPredictor";
    static final String FETCH = "dev/nicsim/riscv/FetchUnit";
    static final String LSU = "dev/nicsim/riscv/LoadStoreUnit";
    static final String PAGE = "dev/nicsim/riscv/DecodedPage";

    // locals of run(Hart)
    static final int H = 1;
    static final int ROOM = 2;
    static final int X = 4;
    static final int STALLS = 5;
    static final int DREG = 6;
    static final int YIELD = 7;
    static final int NOW = 8;
    static final int T = 10;
    static final int R = 12;
    static final int EXIT_IDX = 14;
    static final int EXIT_PC = 15;
    static final int A = 17;
    static final int O = 19;
    static final int FLAG = 21;
    static final int VA = 22;
    static final int VB = 24;
    static final int ITER = 26;
    static final int REGS = 28;

    /** @return the local of guest register r's value (r 1..31) */
    static int val(final int r) {
        return REGS + 4 * (r - 1);
    }

    /** @return the local of guest register r's ready tag (r 1..31) */
    static int rdy(final int r) {
        return REGS + 4 * (r - 1) + 2;
    }

    /** The method being written. */
    final MethodVisitor mv;

    /**
     * @param mv the method being written
     */
    BlockCodeWriter(final MethodVisitor mv) {
        this.mv = mv;
    }

    /** Pushes a field of the data region in {@code DREG}. */
    final void regionField(final String name, final String desc) {
        mv.visitVarInsn(ALOAD, DREG);
        mv.visitFieldInsn(GETFIELD, REGION, name, desc);
    }

    /** Jumps to {@code to} when {@code O} (the access's offset in the region) compares to the region's field as {@code jump} says. */
    final void offsetAgainst(final String limitField, final int jump, final Label to) {
        mv.visitVarInsn(LLOAD, O);
        regionField(limitField, "J");
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(jump, to);
    }

    /** Jumps to {@code to} when the long on the stack compares to 0 as {@code jump} says. */
    final void jumpAgainstZero(final int jump, final Label to) {
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(jump, to);
    }

    /** Sets the block's exit: instructions retired in this pass and the next pc. */
    final void exitAt(final int index, final long pc) {
        iconst(index);
        mv.visitVarInsn(ISTORE, EXIT_IDX);
        mv.visitLdcInsn(pc);
        mv.visitVarInsn(LSTORE, EXIT_PC);
    }

    /** Pushes the cycle of the ready tag in {@code R}. */
    final void readyCycle() {
        mv.visitVarInsn(LLOAD, R);
        iconst(4);
        mv.visitInsn(LSHR);
    }

    /** Copies the hart's {@code x[index]} into a local, or the local back into it. */
    final void registerSlot(final int index, final int local, final boolean store) {
        mv.visitVarInsn(ALOAD, X);
        iconst(index);
        if (store) {
            mv.visitVarInsn(LLOAD, local);
            mv.visitInsn(LASTORE);
        } else {
            mv.visitInsn(LALOAD);
            mv.visitVarInsn(LSTORE, local);
        }
    }

    /** Pushes guest register r's value (0 for x0). */
    final void pushVal(final int r) {
        if (r == 0) {
            mv.visitInsn(LCONST_0);
        } else {
            mv.visitVarInsn(LLOAD, val(r));
        }
    }

    /** Pops a long into rd's local (dropped for the sink). */
    final void storeVal(final int rd) {
        if (rd == SINK) {
            mv.visitInsn(POP2);
        } else {
            mv.visitVarInsn(LSTORE, val(rd));
        }
    }

    /** Pushes a field of the hart in a local. */
    final void field(final int local, final String name, final String desc) {
        mv.visitVarInsn(ALOAD, local);
        mv.visitFieldInsn(GETFIELD, HART, name, desc);
    }

    /** Pushes an int constant with the shortest instruction. */
    final void iconst(final int v) {
        if (v >= -1 && v <= 5) {
            mv.visitInsn(ICONST_0 + v);
        } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            mv.visitIntInsn(BIPUSH, v);
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            mv.visitIntInsn(SIPUSH, v);
        } else {
            mv.visitLdcInsn(v);
        }
    }
}
