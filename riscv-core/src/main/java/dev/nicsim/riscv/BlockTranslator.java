package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;
import static org.objectweb.asm.Opcodes.*;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * Translates a guest basic block into a JVM class (ASM) whose code does what {@link Hart}'s
 * interpreter does for those instructions, cycle for cycle.
 *
 * <p><b>Blocks</b>: from a start pc, the instructions decoded from the page's {@link DecodedPage}
 * slots (the one {@link Isa} table) up to and including the first branch or jump, stopping before
 * an instruction it does not translate (CSR, system, fence, AMO, an extension the model lacks, an
 * illegal word, a fetch fault), at the end of the page, before the page's last slot (an instruction
 * there may straddle into the next page), or at {@link #MAX_INSTRUCTIONS}. Where a block enters
 * another L1I line (models with a cache hierarchy), its code takes the interpreter's fetch-window
 * step there ({@link FetchUnit#enterLine}: the line pair's inline hit, or the L1I look-up and its miss
 * cycles); for a thread that yields on stalls the block ends there instead.
 * Translated: LUI, AUIPC, JAL, JALR, the branches, the loads and stores, the integer ALU ops
 * (with the W forms), the M extension, and Zbb/Zbs when the model has them.
 *
 * <p><b>Code</b>: guest registers and their ready tags live in JVM locals across the block and are
 * written back at its exit. Each instruction's issue cycle is computed as the interpreter's: the
 * later of the cycle and its operands' ready tags, the stall charged to the producer's class;
 * its result's ready tag, its issue occupancy and its class's issue count are constants of the
 * block. Branch prediction ({@link BranchPredictor#branch}, {@link BranchPredictor#jump}), the data region's cache
 * look-ups and divide latency stay dynamic. A load or store the interpreter's fast path would not
 * serve (another region, a region with latency, misaligned under a model that checks), and an
 * operand stall of a thread that yields its slot on stalls, end the block before that instruction
 * with no state touched for it. A store to a page with decoded code or the tohost watch runs the
 * interpreter's store hook ({@link LoadStoreUnit#storeFromBlock}); the block ends after it when the hook
 * asked to halt or dropped translated code (the block's own, maybe).
 *
 * <p>Classes are hidden classes in this package (unloaded with their last block); a block is
 * cached in its page ({@link DecodedPage#blocks}) and dropped with the page's decoded slots, and
 * shared between memories holding the same instructions at the same addresses.
 *
 * <p>Thread-safety: safe for concurrent use (the shared block cache is concurrent); the blocks it
 * returns are immutable.
 */
final class BlockTranslator {
    /** Longest block, in instructions. */
    static final int MAX_INSTRUCTIONS = 64;

    private static final String HART = "dev/nicsim/riscv/Hart";
    private static final String REGION = "dev/nicsim/riscv/MemoryRegion";
    private static final String OPS = "dev/nicsim/riscv/BlockOps";
    private static final String ALU = "dev/nicsim/riscv/Alu";
    private static final String PREDICTOR = "dev/nicsim/riscv/BranchPredictor";
    private static final String FETCH = "dev/nicsim/riscv/FetchUnit";
    private static final String LSU = "dev/nicsim/riscv/LoadStoreUnit";
    private static final String BASE = "dev/nicsim/riscv/TranslatedBlock";
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    /**
     * For the differential harness's own test only: cycles added to the issue occupancy of every
     * translated ALU op (0: none), a timing rule broken on purpose that the harness must catch.
     */
    static int sabotageAluOccupancyCycles;

    // locals of run(Hart)
    private static final int H = 1;
    private static final int ROOM = 2;
    private static final int X = 4;
    private static final int STALLS = 5;
    private static final int DREG = 6;
    private static final int YIELD = 7;
    private static final int NOW = 8;
    private static final int T = 10;
    private static final int R = 12;
    private static final int EXIT_IDX = 14;
    private static final int EXIT_PC = 15;
    private static final int A = 17;
    private static final int O = 19;
    private static final int FLAG = 21;
    private static final int VA = 22;
    private static final int VB = 24;
    private static final int ITER = 26;
    private static final int REGS = 28;

    private BlockTranslator() {
    }

    /**
     * Translates the block starting at a page slot for a hart.
     *
     * @param h    the hart (its model's timing words and settings are compiled in)
     * @param page the page holding the pc (the hart's current fetch page)
     * @param slot the pc's slot, 0 to 2047
     * @return the block; one of length 0 when the first instruction is not translated
     */
    static TranslatedBlock translate(final Hart h, final DecodedPage page, final int slot) {
        final List<long[]> insts = new ArrayList<>();
        final long start = page.base + 2L * slot;
        final long limit = page.base + DecodedPage.PAGE_BYTES;
        long pc = start;
        int s = slot;
        while (insts.size() < MAX_INSTRUCTIONS && pc < limit && s < 2047) {
            long d = page.decoded[s];
            if (d == 0) {
                d = page.decode(s, h.xlen);
                if (d == DecodedPage.FETCH_FAULT) {
                    break;
                }
            }
            final int op = (int) d & 0xff;
            if (!translatable(h, op)) {
                break;
            }
            insts.add(new long[] {pc, d});
            if (op == JAL || op == JALR || (op >= BEQ && op <= BGEU)) {
                break;
            }
            final int len = ((int) d >>> 24) & 7;
            pc += len;
            s += len / 2;
        }
        if (insts.isEmpty()) {
            return new TranslatedBlock.Empty(h.translationKey);
        }
        final long[] last = insts.get(insts.size() - 1);
        final long end = last[0] + (((int) last[1] >>> 24) & 7); // the byte after the last instruction
        final long[] code = new long[2 * insts.size() + 1];
        for (int k = 0; k < insts.size(); k++) {
            code[2 * k] = insts.get(k)[0];
            code[2 * k + 1] = insts.get(k)[1];
        }
        code[code.length - 1] = end;
        page.markTranslated(slot, (int) ((end - page.base + 1) >>> 1));
        final Code c = new Code(h.translationKey, code);
        final TranslatedBlock cached = SHARED.get(c);
        if (cached != null) {
            return cached;
        }
        final byte[] bytes = generate(h, insts, end);
        final TranslatedBlock b;
        try {
            final Class<?> k = LOOKUP.defineHiddenClass(bytes, true).lookupClass();
            b = (TranslatedBlock) k.getDeclaredConstructor(String.class, int.class).newInstance(h.translationKey, insts.size());
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException("block translator: generated class for pc 0x" + Long.toHexString(start) + " failed: " + e, e);
        }
        if (SHARED.size() >= SHARED_LIMIT) {
            SHARED.clear();
        }
        SHARED.put(c, b);
        return b;
    }

    /**
     * Blocks by what their code is made of, shared by every memory that holds the same instructions
     * at the same addresses (the NICs of a fabric load one firmware image each): each is translated
     * and compiled by the JIT once. Cleared whole when it reaches {@link #SHARED_LIMIT}.
     */
    private static final java.util.concurrent.ConcurrentHashMap<Code, TranslatedBlock> SHARED = new java.util.concurrent.ConcurrentHashMap<>();
    /** Most blocks {@link #SHARED} holds. */
    private static final int SHARED_LIMIT = 1 << 16;

    /**
     * What a block's code depends on: the hart key, each instruction's address and decode, and the
     * end address.
     */
    private record Code(String key, long[] words) {
        @Override
        public boolean equals(final Object o) {
            return o instanceof Code c && c.key == key && java.util.Arrays.equals(c.words, words);
        }

        @Override
        public int hashCode() {
            return key.hashCode() * 31 + java.util.Arrays.hashCode(words);
        }
    }

    private static boolean translatable(final Hart h, final int op) {
        if (op >= LUI && op <= SD) {
            return true;
        }
        if (op >= ADDI && op <= MULHU32) {
            return true;
        }
        return op >= ANDN && op <= BSETI && h.enabled[op];
    }

    private static String aluName(final int op) {
        switch (op) {
            case ADDI: return "addi";
            case SLTI: return "slti";
            case SLTIU: return "sltiu";
            case XORI: return "xori";
            case ORI: return "ori";
            case ANDI: return "andi";
            case SLLI: return "slli";
            case SRLI: return "srli";
            case SRAI: return "srai";
            case ADD: return "add";
            case SUB: return "sub";
            case SLL: return "sll";
            case SLT: return "slt";
            case SLTU: return "sltu";
            case XOR: return "xor";
            case SRL: return "srl";
            case SRA: return "sra";
            case OR: return "or";
            case AND: return "and";
            case ADDIW: return "addiw";
            case SLLIW: return "slliw";
            case SRLIW: return "srliw";
            case SRAIW: return "sraiw";
            case ADDW: return "addw";
            case SUBW: return "subw";
            case SLLW: return "sllw";
            case SRLW: return "srlw";
            case SRAW: return "sraw";
            case MUL: return "mul";
            case MULH: return "mulh";
            case MULHSU: return "mulhsu";
            case MULHU: return "mulhu";
            case MULW: return "mulw";
            case MULH32: return "mulh32";
            case MULHSU32: return "mulhsu32";
            case MULHU32: return "mulhu32";
            default: return null;
        }
    }

    /** The Hart field counting issues of an op's class when the model counts them, or null. */
    private static String issueField(final int op, final long tm) {
        switch (op) {
            case JAL: return "issuedJal";
            case JALR: return "issuedJalr";
            case MUL: case MULW: return "issuedMul";
            case MULH: case MULHSU: case MULHU: case MULH32: case MULHSU32: case MULHU32: return "issuedMulh";
            case DIV: case DIVU: case REM: case REMU: case DIVW: case DIVUW: case REMW: case REMUW: return "issuedDiv";
            case SB: case SH: case SW: case SD: return "issuedStore";
            default:
                if (op >= BEQ && op <= BGEU) {
                    return "issuedBranch";
                }
                if (op >= LB && op <= LD) {
                    return ((tm >>> 48) & 128) != 0 ? "issuedLoadSubword" : "issuedLoad";
                }
                return null;
        }
    }

    private static int val(final int r) {
        return REGS + 4 * (r - 1);
    }

    private static int rdy(final int r) {
        return REGS + 4 * (r - 1) + 2;
    }

    /** Emits the class of a block: a subclass of {@link TranslatedBlock} with run(Hart). */
    private static byte[] generate(final Hart h, final List<long[]> insts, final long endPc) {
        final ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(final String a, final String b) {
                return "java/lang/Object";
            }
        };
        cw.visit(V17, ACC_FINAL | ACC_SUPER, "dev/nicsim/riscv/TranslatedBlock$Code", null, BASE, null);
        final MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "(Ljava/lang/String;I)V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitVarInsn(ALOAD, 1);
        init.visitVarInsn(ILOAD, 2);
        init.visitMethodInsn(INVOKESPECIAL, BASE, "<init>", "(Ljava/lang/String;I)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        final MethodVisitor mv = cw.visitMethod(0, "run", "(L" + HART + ";J)J", null, null);
        mv.visitCode();
        new Emitter(h, mv, insts, endPc).emit();
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** The code of one block's run method. */
    private static final class Emitter {
        private final Hart h;
        private final MethodVisitor mv;
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

        Emitter(final Hart h, final MethodVisitor mv, final List<long[]> insts, final long endPc) {
            this.h = h;
            this.mv = mv;
            this.insts = insts;
            this.endPc = endPc;
            this.exitBefore = new Label[insts.size()];
            this.occupancy = new long[insts.size()];
            this.staticLatency = new long[insts.size()];
            java.util.Arrays.fill(producer, -1);
        }

        void emit() {
            for (final long[] in : insts) {
                final int ctl = (int) in[1];
                final int rd = (ctl >>> 8) & 63;
                final int rs1 = (ctl >>> 14) & 31;
                final int rs2 = (ctl >>> 19) & 31;
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
            mv.visitVarInsn(ALOAD, H);
            mv.visitFieldInsn(GETFIELD, HART, "dataRegion", "L" + REGION + ";");
            mv.visitVarInsn(ASTORE, DREG);
            mv.visitVarInsn(ALOAD, H);
            mv.visitFieldInsn(GETFIELD, HART, "yieldOnStall", "Z");
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
                    mv.visitVarInsn(ALOAD, X);
                    iconst(r);
                    mv.visitInsn(LALOAD);
                    mv.visitVarInsn(LSTORE, val(r));
                    mv.visitVarInsn(ALOAD, X);
                    iconst(Hart.READY + r);
                    mv.visitInsn(LALOAD);
                    mv.visitVarInsn(LSTORE, rdy(r));
                }
            }
            mv.visitLabel(start);
            boolean ended = false;
            for (int i = 0; i < insts.size(); i++) {
                ended = instruction(i, insts.get(i)[0], insts.get(i)[1]);
            }
            if (!ended) {
                iconst(insts.size());
                mv.visitVarInsn(ISTORE, EXIT_IDX);
                mv.visitLdcInsn(endPc);
                mv.visitVarInsn(LSTORE, EXIT_PC);
            }
            mv.visitJumpInsn(GOTO, exit);
            // the exits before an instruction handed back to the interpreter
            for (int i = 0; i < insts.size(); i++) {
                if (exitBefore[i] != null) {
                    mv.visitLabel(exitBefore[i]);
                    iconst(i);
                    mv.visitVarInsn(ISTORE, EXIT_IDX);
                    mv.visitLdcInsn(insts.get(i)[0]);
                    mv.visitVarInsn(LSTORE, EXIT_PC);
                    mv.visitJumpInsn(GOTO, exit);
                }
            }
            // the one exit: locals back into the hart
            mv.visitLabel(exit);
            for (int r = 1; r < 32; r++) {
                if (written[r]) {
                    mv.visitVarInsn(ALOAD, X);
                    iconst(r);
                    mv.visitVarInsn(LLOAD, val(r));
                    mv.visitInsn(LASTORE);
                    mv.visitVarInsn(ALOAD, X);
                    iconst(Hart.READY + r);
                    mv.visitVarInsn(LLOAD, rdy(r));
                    mv.visitInsn(LASTORE);
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
            mv.visitVarInsn(ALOAD, H);
            mv.visitInsn(DUP);
            mv.visitFieldInsn(GETFIELD, HART, "instret", "J");
            mv.visitVarInsn(LLOAD, R);
            mv.visitInsn(LADD);
            mv.visitFieldInsn(PUTFIELD, HART, "instret", "J");
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
            final int rd = (ctl >>> 8) & 63;
            final int rs1 = (ctl >>> 14) & 31;
            final int rs2 = (ctl >>> 19) & 31;
            final long imm = d >> 32;
            final int len = (ctl >>> 24) & 7;
            final long tm = h.timing[op];
            final long occ = ((tm >>> 32) & 0xffff) + (aluName(op) != null && op < MUL ? sabotageAluOccupancyCycles : 0);
            final int acc = (int) (tm >>> 48);
            final long alignMask = acc >>> 8;
            final boolean load = op >= LB && op <= LD;
            final boolean store = op >= SB && op <= SD;
            final int size = store ? 1 << (op - SB) : 0;
            // 0. entering another L1I line: the interpreter's fetch-window step (a thread that yields
            // on stalls leaves it to the interpreter, which may give its slot away on a miss)
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
                mv.visitVarInsn(ALOAD, DREG);
                mv.visitFieldInsn(GETFIELD, REGION, "base", "J");
                mv.visitInsn(LSUB);
                mv.visitVarInsn(LSTORE, O);
                mv.visitVarInsn(LLOAD, O);
                mv.visitInsn(LCONST_0);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(IFLT, exitBefore(i));
                if (alignMask != 0) {
                    mv.visitVarInsn(LLOAD, A);
                    mv.visitLdcInsn(alignMask);
                    mv.visitInsn(LAND);
                    mv.visitInsn(LCONST_0);
                    mv.visitInsn(LCMP);
                    mv.visitJumpInsn(IFNE, exitBefore(i));
                }
                if (load) {
                    final Label fast = new Label();
                    mv.visitInsn(ICONST_0);
                    mv.visitVarInsn(ISTORE, FLAG);
                    mv.visitVarInsn(LLOAD, O);
                    mv.visitVarInsn(ALOAD, DREG);
                    mv.visitFieldInsn(GETFIELD, REGION, "fastLast8", "J");
                    mv.visitInsn(LCMP);
                    mv.visitJumpInsn(IFLE, fast);
                    mv.visitVarInsn(LLOAD, O);
                    mv.visitVarInsn(ALOAD, DREG);
                    mv.visitFieldInsn(GETFIELD, REGION, "cachedLast8", "J");
                    mv.visitInsn(LCMP);
                    mv.visitJumpInsn(IFGT, exitBefore(i));
                    mv.visitInsn(ICONST_1);
                    mv.visitVarInsn(ISTORE, FLAG);
                    mv.visitLabel(fast);
                } else {
                    // o <= storeLast1 + 1 - size, the interpreter's test (o + size could overflow)
                    mv.visitVarInsn(LLOAD, O);
                    mv.visitVarInsn(ALOAD, DREG);
                    mv.visitFieldInsn(GETFIELD, REGION, "storeLast1", "J");
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
                    mv.visitVarInsn(ALOAD, H);
                    mv.visitInsn(DUP);
                    mv.visitFieldInsn(GETFIELD, HART, f, "J");
                    mv.visitInsn(LCONST_1);
                    mv.visitInsn(LADD);
                    mv.visitFieldInsn(PUTFIELD, HART, f, "J");
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
                mv.visitVarInsn(ALOAD, DREG);
                mv.visitFieldInsn(GETFIELD, REGION, "bytes", "[B");
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
                mv.visitVarInsn(ALOAD, DREG);
                mv.visitFieldInsn(GETFIELD, REGION, "pages", "[Ldev/nicsim/riscv/DecodedPage;");
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
                iconst(i + 1);
                mv.visitVarInsn(ISTORE, EXIT_IDX);
                mv.visitLdcInsn(pc + len);
                mv.visitVarInsn(LSTORE, EXIT_PC);
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

        /** now += the fetch-window step at pc ({@link FetchUnit#enterLine}); a yielding thread goes to {@code out} first. */
        private void enterLine(final long pc, final Label out) {
            mv.visitVarInsn(ILOAD, YIELD);
            mv.visitJumpInsn(IFNE, out);
            field(H, "fetch", "L" + FETCH + ";");
            mv.visitLdcInsn(pc);
            mv.visitMethodInsn(INVOKEVIRTUAL, FETCH, "enterLine", "(J)I", false);
            mv.visitInsn(I2L);
            mv.visitVarInsn(LLOAD, NOW);
            mv.visitInsn(LADD);
            mv.visitVarInsn(LSTORE, NOW);
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
            mv.visitVarInsn(LLOAD, R);
            iconst(4);
            mv.visitInsn(LSHR);
            mv.visitVarInsn(LLOAD, NOW);
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(IFGT, stall);
            mv.visitVarInsn(LLOAD, NOW);
            mv.visitVarInsn(LSTORE, T);
            mv.visitJumpInsn(GOTO, done);
            mv.visitLabel(stall);
            mv.visitVarInsn(ILOAD, YIELD);
            mv.visitJumpInsn(IFEQ, charge);
            mv.visitJumpInsn(GOTO, exitBefore(i));
            mv.visitLabel(charge);
            mv.visitVarInsn(ALOAD, STALLS);
            mv.visitVarInsn(LLOAD, R);
            mv.visitInsn(L2I);
            iconst(15);
            mv.visitInsn(IAND);
            mv.visitInsn(DUP2);
            mv.visitInsn(LALOAD);
            mv.visitVarInsn(LLOAD, R);
            iconst(4);
            mv.visitInsn(LSHR);
            mv.visitVarInsn(LLOAD, NOW);
            mv.visitInsn(LSUB);
            mv.visitInsn(LADD);
            mv.visitInsn(LASTORE);
            mv.visitVarInsn(LLOAD, R);
            iconst(4);
            mv.visitInsn(LSHR);
            mv.visitVarInsn(LSTORE, T);
            mv.visitLabel(done);
        }

        private void pushVal(final int r) {
            if (r == 0) {
                mv.visitInsn(LCONST_0);
            } else {
                mv.visitVarInsn(LLOAD, val(r));
            }
        }

        private void storeVal(final int rd) {
            if (rd == SINK) {
                mv.visitInsn(POP2);
            } else {
                mv.visitVarInsn(LSTORE, val(rd));
            }
        }

        private void field(final int local, final String name, final String desc) {
            mv.visitVarInsn(ALOAD, local);
            mv.visitFieldInsn(GETFIELD, HART, name, desc);
        }

        private void iconst(final int v) {
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
}
