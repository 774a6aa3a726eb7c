package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;
import static org.objectweb.asm.Opcodes.*;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassWriter;
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

    static final String HART = "dev/nicsim/riscv/Hart";
    static final String BASE = "dev/nicsim/riscv/TranslatedBlock";
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    /**
     * For the differential harness's own test only: cycles added to the issue occupancy of every
     * translated ALU op (0: none), a timing rule broken on purpose that the harness must catch.
     */
    static int sabotageAluOccupancyCycles;

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
        return translate(h, page, slot, true);
    }

    /**
     * The block starting at a page slot when another memory's hart has translated the same
     * instructions for the same key already ({@link #SHARED}), else a {@link TranslatedBlock.Cold}
     * that counts entries: no class is generated here.
     *
     * @param h    the hart
     * @param page the page holding the pc
     * @param slot the pc's slot, 0 to 2047
     * @return the shared block, an empty one (its first instruction is not translated), or a cold one
     */
    static TranslatedBlock shared(final Hart h, final DecodedPage page, final int slot) {
        return translate(h, page, slot, false);
    }

    private static TranslatedBlock translate(final Hart h, final DecodedPage page, final int slot, final boolean generate) {
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
            final int len = lengthOf(d);
            pc += len;
            s += len / 2;
        }
        if (insts.isEmpty()) {
            return new TranslatedBlock.Empty(h.translationKey);
        }
        final long[] last = insts.get(insts.size() - 1);
        final long end = last[0] + lengthOf(last[1]); // the byte after the last instruction
        final long[] code = new long[2 * insts.size() + 1];
        for (int k = 0; k < insts.size(); k++) {
            code[2 * k] = insts.get(k)[0];
            code[2 * k + 1] = insts.get(k)[1];
        }
        code[code.length - 1] = end;
        final Code c = new Code(h.translationKey, code);
        final TranslatedBlock cached = SHARED.get(c);
        if (cached != null || !generate) {
            if (cached == null) {
                return new TranslatedBlock.Cold(h.translationKey);
            }
            page.markTranslated(slot, (int) ((end - page.base + 1) >>> 1));
            return cached;
        }
        page.markTranslated(slot, (int) ((end - page.base + 1) >>> 1));
        long span = 0;
        for (int k = 0; k + 1 < insts.size(); k++) {
            span += BlockEmitter.occupancy(h, (int) insts.get(k)[1] & 0xff);
        }
        final byte[] bytes = generate(h, insts, end);
        final TranslatedBlock b;
        try {
            final Class<?> k = LOOKUP.defineHiddenClass(bytes, true).lookupClass();
            b = (TranslatedBlock) k.getDeclaredConstructor(String.class, int.class, long.class).newInstance(h.translationKey, insts.size(), span);
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
    private static final ConcurrentHashMap<Code, TranslatedBlock> SHARED = new ConcurrentHashMap<>();
    /** Most blocks {@link #SHARED} holds. */
    private static final int SHARED_LIMIT = 1 << 16;

    /**
     * What a block's code depends on: the hart key, each instruction's address and decode, and the
     * end address.
     */
    private record Code(String key, long[] words) {
        @Override
        public boolean equals(final Object o) {
            return o instanceof Code c && c.key == key && Arrays.equals(c.words, words);
        }

        @Override
        public int hashCode() {
            return key.hashCode() * 31 + Arrays.hashCode(words);
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

    static String aluName(final int op) {
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
    static String issueField(final int op, final long tm) {
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

    /** Emits the class of a block: a subclass of {@link TranslatedBlock} with run(Hart). */
    private static byte[] generate(final Hart h, final List<long[]> insts, final long endPc) {
        final ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(final String a, final String b) {
                return "java/lang/Object";
            }
        };
        cw.visit(V17, ACC_FINAL | ACC_SUPER, "dev/nicsim/riscv/TranslatedBlock$Code", null, BASE, null);
        final MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "(Ljava/lang/String;IJ)V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitVarInsn(ALOAD, 1);
        init.visitVarInsn(ILOAD, 2);
        init.visitVarInsn(LLOAD, 3);
        init.visitMethodInsn(INVOKESPECIAL, BASE, "<init>", "(Ljava/lang/String;IJ)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        final MethodVisitor mv = cw.visitMethod(0, "run", "(L" + HART + ";J)J", null, null);
        mv.visitCode();
        new BlockEmitter(h, mv, insts, endPc).emit();
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
