package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;

/**
 * One RISC-V hardware thread (hart): RV32IMAC or RV64IMAC with Zicsr and Zifencei (and, as the
 * model says, Zbb and Zbs) in machine mode, executing pre-decoded instructions and timing them with a {@link CycleModel}.
 *
 * <p><b>Architecture</b> ("The RISC-V Instruction Set Manual" Volume I 20191213 and Volume II
 * 20211203): registers hold XLEN-bit values sign-extended to 64 bits; machine-mode CSRs
 * {@code mstatus} (MIE, MPIE; MPP reads as M), {@code misa} (read-only: MXL, A, C, I, M),
 * {@code mie}/{@code mip} (storage only, no interrupts are raised), {@code mtvec}, {@code mepc},
 * {@code mcause}, {@code mtval}, {@code mscratch}, {@code mhartid}, {@code mvendorid},
 * {@code marchid}, {@code mimpid} (0), {@code mcycle}/{@code minstret} (and their RV32
 * {@code h} halves) and the read-only aliases {@code cycle}, {@code time} (one tick per cycle),
 * {@code instret}, and the debug trigger CSRs {@code tselect}/{@code tdata1-3} of a hart with no
 * triggers (RISC-V Debug Specification 1.0 §5.7: tselect reads 0, tdata1 reads type 0). Any other CSR, a write to a read-only CSR, and S/U-mode features raise an
 * illegal-instruction exception. Exceptions (Volume II §3.1.15-3.1.17, §3.3.1): instruction
 * access fault (1), illegal instruction (2, mtval = the instruction bits), breakpoint (3, mtval
 * = pc), load/store-AMO address misaligned for LR/SC/AMOs (4/6, mtval = address), load and
 * store/AMO access faults (5/7, mtval = address), ecall from M (11); on a trap {@code mepc},
 * {@code mcause}, {@code mtval} are written, MPIE takes MIE, MIE is cleared, and the hart jumps
 * to {@code mtvec.BASE}; {@code mret} restores them. A misaligned load or store (inside one
 * region) does what the model says ({@link CycleModel#misaligned()}): it is performed, performed
 * with extra cycles, or raises address-misaligned (4/6, mtval = address). The Zbb and Zbs
 * instructions execute when the model enables them ({@link CycleModel#extensions()}) and raise
 * illegal-instruction otherwise. An exception that the program cannot handle is fatal (the
 * hart halts with a {@link Fault}): in system-call mode every exception but ecall; otherwise a
 * second exception before any instruction retires after the first (e.g. no handler at mtvec).
 *
 * <p><b>Speed</b>: each instruction is decoded once into a {@code long} in the
 * {@link DecodedPage} of its 4 KiB page (per-page arrays, rvemu/rv8 style) and re-decoded only
 * after a store to its bytes or {@code fence.i}. The interpreter loop keeps pc, cycle and
 * instruction counters in locals and allocates nothing. What the JIT (C2) needs to keep it fast:
 * few arrays and settings live across the loop (register values and ready tags share one array,
 * the per-op timing and load/store bits one {@code long} each, the branch predictor one array), and
 * work that only some instructions need stays in one {@code case} (jumps and branches share one),
 * since C2 places an expression that several cases share above the switch, where every
 * instruction pays for it (docs/performance.md, "RISC-V core", 2026-11-27). The per-instruction
 * array accesses (register values and ready tags, the op's timing word, the decode slot, the
 * stall counters, the branch predictor) skip the bounds check ({@code sun.misc.Unsafe}, see
 * {@link #at}): C2 cannot drop those checks itself, since it does not know a field array's length,
 * and each one cost a reload of the spilled length, a compare and a branch; every such index is
 * masked below its array's length (fourth session, 2026-11-27: 1.11x on bf3-dpa's compute loop,
 * mean of six alternated JMH runs).
 *
 * <p><b>Timing</b>: see {@link CycleModel}; stall cycles are charged to the {@link TimingClass}
 * of the instruction that caused them (a load's consumer waiting: LOAD; a multi-cycle divide:
 * DIV), and control-flow penalties to {@link #controlPenaltyCycles()}.
 *
 * <p>Thread-safety: not thread-safe; a hart and its memory belong to one thread.
 */
public final class Hart {
    /** Exception causes (Volume II Table 3.6). */
    public static final int CAUSE_FETCH_ACCESS = 1;
    /** Illegal instruction. */
    public static final int CAUSE_ILLEGAL = 2;
    /** Breakpoint. */
    public static final int CAUSE_BREAKPOINT = 3;
    /** Load address misaligned (LR). */
    public static final int CAUSE_LOAD_MISALIGNED = 4;
    /** Load access fault. */
    public static final int CAUSE_LOAD_ACCESS = 5;
    /** Store/AMO address misaligned. */
    public static final int CAUSE_STORE_MISALIGNED = 6;
    /** Store/AMO access fault. */
    public static final int CAUSE_STORE_ACCESS = 7;
    /** Environment call from M-mode. */
    public static final int CAUSE_ECALL_M = 11;

    /** Why a hart stopped: see {@link #haltReason()}. */
    public enum HaltReason {
        /** Still runnable. */
        NONE,
        /** The program exited ({@link #exitCode()}). */
        EXIT,
        /** An exception the program does not handle ({@link #fault()}). */
        FAULT
    }

    /**
     * An unhandled exception.
     *
     * @param pc    address of the faulting instruction, zero-extended
     * @param cause exception cause (Volume II Table 3.6)
     * @param tval  mtval value (address or instruction bits)
     */
    public record Fault(long pc, int cause, long tval) {
        /** @return the cause's name as the privileged spec writes it */
        public String causeName() {
            switch (cause) {
                case 0: return "instruction address misaligned";
                case CAUSE_FETCH_ACCESS: return "instruction access fault";
                case CAUSE_ILLEGAL: return "illegal instruction";
                case CAUSE_BREAKPOINT: return "breakpoint";
                case CAUSE_LOAD_MISALIGNED: return "load address misaligned";
                case CAUSE_LOAD_ACCESS: return "load access fault";
                case CAUSE_STORE_MISALIGNED: return "store/AMO address misaligned";
                case CAUSE_STORE_ACCESS: return "store/AMO access fault";
                case 8: return "environment call from U-mode";
                case CAUSE_ECALL_M: return "environment call from M-mode";
                default: return "exception " + cause;
            }
        }
    }

    private static final MemoryRegion NO_REGION = new MemoryRegion("none", 0, 0, 0, null);
    private static final int CLASS_COUNT = TimingClass.values().length;
    /** Internal: the instruction retired and the hart must stop (exit, tohost). */
    private static final int STOP = 1 << 20;
    private static final long MSTATUS_MIE = 1L << 3;
    private static final long MSTATUS_MPIE = 1L << 7;
    private static final long MSTATUS_MPP = 3L << 11;
    private static final long MIP_MASK = 0x888;
    /** {@link #access} bits: shift that cuts an 8-byte read to the load's size (64 - 8 * size). */
    private static final int ACCESS_SHIFT_MASK = 63;
    /** {@link #access} bit: zero-extending load. */
    private static final int ACCESS_UNSIGNED = 64;
    /** {@link #access} bit: sub-word load (timing class LOAD_SUBWORD). */
    private static final int ACCESS_SUBWORD = 128;
    /** {@link #access}: the bits from here hold the alignment mask (size - 1) checked by the fast path. */
    private static final int ACCESS_ALIGN_SHIFT = 8;

    // ---- architectural state ----
    /**
     * Index of register 0's ready tag in {@link #x}: the register values are {@code x[0..32]}
     * (32 is the write sink of x0) and their ready tags {@code x[READY..READY + 32]}, one array so
     * the interpreter loop keeps one array (and one length) in registers instead of two.
     */
    static final int READY = 33;
    /**
     * Register values, then their ready tags (see {@link #READY}). Sized for any 6-bit rd field
     * ({@code READY + 64} longs, though decode writes rd 0..32 only), so {@link #run}'s unchecked
     * accesses ({@link #at}, {@link #set}) with indexes masked to 5 or 6 bits stay inside it.
     */
    final long[] x = new long[READY + 64];
    long pc;
    final int xlen;
    final int sextShift;
    final long addrMask;
    private final int hartId;
    private long mstatus;
    private long mtvec;
    private long mepc;
    private long mcause;
    private long mtval;
    private long mscratch;
    private long mie;
    private long mip;
    private long cycleOffset;
    private long instretOffset;
    /** The LR reservation's address, or -1 for none ({@link Memory#breakReservations} ends it). */
    long reservation = -1;
    private long tdata2;

    // ---- timing ----
    /*
     * Ready tags (in x from READY on), per register: (cycle its value is ready) << 4 | timing
     * class of its producer; the tags order like the cycles, so one max finds the later operand
     * and its cause.
     */
    /**
     * Per op: {@code (latency << 4 | class) + (occupancy << 32) + (access << 48)}: the low word added
     * to {@code issue << 4} is the result's ready tag, bits 32-47 are the issue occupancy (latency
     * and occupancy at most 10000), bits 48-63 are the load or store op's {@link #access} bits (so
     * the interpreter loop needs no second per-op table).
     */
    final long[] timing = new long[256]; // any 8-bit op field: run() reads it unchecked
    /**
     * Per load and store op: {@code shift | unsigned | subword | alignMask << 8} (see the
     * {@code ACCESS_} constants); the align mask is size - 1 when the model does not perform
     * misaligned accesses for free, else 0 (no check on the fast path).
     */
    private final int[] access = new int[OP_COUNT];
    /** Per op: whether the model has it (false for the Zbb and Zbs ops of a model without them). */
    final boolean[] enabled = new boolean[OP_COUNT];
    private final CycleModel.Misaligned misalignedPolicy;
    private final boolean misalignedTrap;
    private final int misalignedExtraCycles;
    /** Operand-wait stall cycles per class of the producer the instruction waited for. */
    final long[] stalls = new long[16]; // any 4-bit class field: run() reads it unchecked
    /** Issue occupancy minus one per class (the stall cycles each issue of the class costs). */
    private final int[] occupancyStallCycles = new int[CLASS_COUNT];
    /*
     * Issues per timing class, counted in each op's own case of the interpreter's switch (plain
     * fields: an array element store per instruction there may alias the register file and costs
     * a third of ibex's speed); ALU issues are derived in issues(). Occupancy stalls of a class are
     * its issues times (occupancy - 1). Counted only when countIssues.
     */
    long issuedBranch;
    long issuedJal;
    long issuedJalr;
    long issuedLoad;
    long issuedLoadSubword;
    long issuedStore;
    long issuedMul;
    long issuedMulh;
    long issuedDiv;
    private long issuedCsr;
    private long issuedAmo;
    private long issuedFence;
    private long issuedSystem;
    /** Instructions that issued and raised an exception (they do not retire). */
    private long faultedIssues;
    private long controlStallCycles;
    /**
     * Whether some class occupies the pipeline more than one cycle; when none does (e31) every
     * occupancy stall is 0 and the interpreter counts no issues (the counting alone costs the
     * e31 about 15 % on a branchy loop).
     */
    final boolean countIssues;
    final boolean divDataDependent;
    private final boolean bhtPredictor;
    private final int redirectPenalty;
    /*
     * The branch predictor in one long[] (see the BP_ indexes): its settings, then the BHT's 2-bit
     * counters, the BTB's tags and targets and the return-address stack. One array, read by index,
     * keeps the interpreter loop from holding a register (or a spill slot) for each of five arrays
     * and four settings; the values and the update rules are those of separate arrays.
     */
    private final long[] bp;
    /** {@link #bp}: 1 for a BHT/BTB/RAS predictor, 0 for the static taken/jump penalties. */
    private static final int BP_ON = 0;
    /** {@link #bp}: cycles lost on a taken branch without a predictor. */
    private static final int BP_TAKEN = 1;
    /** {@link #bp}: cycles lost on a jump without a predictor. */
    private static final int BP_JUMP = 2;
    /** {@link #bp}: cycles lost on a mispredicted branch or jump. */
    private static final int BP_MISPREDICT = 3;
    /** {@link #bp}: BHT entries - 1 (a power of two minus one). */
    private static final int BP_BHT_MASK = 4;
    /** {@link #bp}: BTB entries. */
    private static final int BP_BTB_ENTRIES = 5;
    /** {@link #bp}: index of the first BTB tag (-1: empty); the targets follow the tags. */
    private static final int BP_BTB = 6;
    /** {@link #bp}: index of the return-address stack's first entry. */
    private static final int BP_RAS = 7;
    /** {@link #bp}: the model's RAS entries (0: none). */
    private static final int BP_RAS_ENTRIES = 8;
    /** {@link #bp}: the RAS's length, max(1, RAS entries). */
    private static final int BP_RAS_LENGTH = 9;
    /** {@link #bp}: the RAS's top index, 0 .. length - 1. */
    private static final int BP_RAS_TOP = 10;
    /** {@link #bp}: entries on the RAS, 0 .. length. */
    private static final int BP_RAS_COUNT = 11;
    /** {@link #bp}: index of the first BHT counter. */
    private static final int BP_BHT = 12;
    long cycles;
    long instret;
    boolean yieldOnStall;
    private long readyAt;
    private boolean stopAfterTrap;
    private boolean trapped;
    /** Set by the interpreter when it gave its slot away on a stall or an L1I miss (yieldOnStall). */
    private boolean yielded;
    /** The engine {@link #run} uses. */
    private Engine engine = Engine.fromProperty();
    /**
     * Whether {@link #runTranslated} returns after each step (one block, or one instruction of the
     * interpreter): the differential harness ({@link EngineDifferential}) compares there.
     */
    boolean stepBlocks;
    /** With {@link #stepBlocks}: a block that loops to its own start may still run several passes in a step. */
    boolean chainInSteps;
    /**
     * Entries into a block start before it is translated (the interpreter runs the first ones):
     * code that runs a few times costs no class and no JIT compile. At least 1.
     */
    int translateAfter = translateAfterProperty();
    /** Instructions the translator's dispatch loop hands to the interpreter at a time. */
    private static final int INTERPRET_RUN = 8;
    /** Instructions retired inside translated blocks. */
    private long translatedInstret;
    /**
     * What a translated block's code depends on besides its instructions (XLEN, the per-op timing
     * words, issue counting, divide latency rule, enabled extensions, fetch line size), interned:
     * harts with equal keys share the blocks of a page, compared by identity.
     */
    final String translationKey;

    /**
     * The default of {@link #translateAfter}: the system property {@code nicsim.riscv.translateAfter}
     * (an integer, at least 1; 1 translates every block at its first entry, as the differential
     * harness does), else 1000.
     *
     * @return entries before translation, at least 1
     * @throws IllegalArgumentException when the property is not an integer of at least 1
     */
    static int translateAfterProperty() {
        final String v = System.getProperty("nicsim.riscv.translateAfter");
        if (v == null) {
            return 1000;
        }
        try {
            final int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("nicsim.riscv.translateAfter: expected an integer of at least 1, got '" + v + "'");
    }

    /**
     * How {@link #run} executes instructions.
     */
    public enum Engine {
        /** The interpreter: one decoded instruction at a time (the reference). */
        INTERP,
        /** Translated blocks ({@link BlockTranslator}), with the interpreter as fallback. */
        TRANSLATE;

        /**
         * The default engine of new harts: the system property {@code nicsim.riscv.engine}
         * ({@code interp} or {@code translate}), else {@link #INTERP}.
         *
         * @return the engine
         * @throws IllegalArgumentException when the property names no engine
         */
        static Engine fromProperty() {
            final String v = System.getProperty("nicsim.riscv.engine", "interp");
            return parse(v);
        }

        /**
         * Parses an engine's name.
         *
         * @param name {@code interp} or {@code translate}
         * @return the engine
         * @throws IllegalArgumentException when the name is neither, with a message naming both
         */
        public static Engine parse(final String name) {
            switch (name) {
                case "interp": return INTERP;
                case "translate": return TRANSLATE;
                default: throw new IllegalArgumentException("engine: expected interp or translate, got '" + name + "'");
            }
        }
    }

    // ---- environment ----
    private final Memory memory;
    private Environment environment;
    private boolean systemCalls;
    private DecodedPage fetchPage;
    /**
     * The fetch window {@code [fetchBase, fetchBase + fetchBytes)}: the page (flat models) or
     * the L1I line (hierarchy models) of the last fetch; leaving it finds the page and, with a
     * hierarchy, looks the new line up in the core's L1I.
     */
    private long fetchBase = Long.MIN_VALUE;
    private long fetchBytes;
    /** log2 of the fetch window: 12 (a page) without a hierarchy, else log2 of the L1I line. */
    final int fetchLineShift;
    /**
     * The L1I line numbers ({@code pc >>> fetchLineShift}) of this hart's last two line fetches
     * (-1: none) and their ways in the core's L1I: entering the older one again while its way
     * still holds it is a hit found without a call (a loop spanning two lines).
     */
    private long fetchLastLine = -1;
    private int fetchLastWay;
    private long fetchPrevLine = -1;
    private int fetchPrevWay;
    /**
     * Set by {@link #fetchWindow} for {@link #run}'s inline L1I fast path: the window of
     * {@link #fetchPrevLine} (clipped to the current page) when that line is still in its way of
     * the core's L1I, else {@code fetchAltBytes == 0}. While {@link #run} runs, nothing but this
     * hart's own line entries touches its core's L1I (threads of one core run one {@code run} call
     * at a time), so an entry into that line, and any later entry back and forth between it and
     * the last line, is an L1I hit; {@link #run} counts those hits and credits them in one go
     * ({@link #creditFetchHits}) before the next full lookup and when it returns.
     */
    private long fetchAltBase;
    private long fetchAltBytes;
    /** L1I hits {@link #run} counted inline and has not credited yet ({@link #creditFetchHits}). */
    private long fetchHits;
    /** The hierarchy timing the page of {@link #fetchAltBase}'s line (the one hits are credited to). */
    private MemoryHierarchy fetchHierarchy;
    /** Cycles the hart waited for instruction lines that missed the L1I. */
    private long fetchStallCycles;
    MemoryRegion dataRegion = NO_REGION;
    private int pendingCause = -1;
    private long pendingTval;
    private int slowExtra;
    private long lastTrapInstret = -1;
    private long trapPc;
    private int trapCause;
    private long trapTval;
    private HaltReason haltReason = HaltReason.NONE;
    private int exitCode;
    private Fault fault;

    /**
     * Creates a hart at pc 0 with all registers 0.
     *
     * @param memory the memory it executes from and accesses
     * @param xlen   32 or 64
     * @param model  timing
     * @param hartId the value {@code mhartid} reads, at least 0
     * @throws IllegalArgumentException when xlen is not 32 or 64
     */
    public Hart(final Memory memory, final int xlen, final CycleModel model, final int hartId) {
        if (xlen != 32 && xlen != 64) {
            throw new IllegalArgumentException("xlen must be 32 or 64: " + xlen);
        }
        this.memory = memory;
        this.xlen = xlen;
        this.sextShift = 64 - xlen;
        this.addrMask = xlen == 32 ? 0xffffffffL : -1L;
        this.hartId = hartId;
        for (int op = 0; op < OP_COUNT; op++) {
            final TimingClass c = Isa.timingOf(op);
            timing[op] = (model.latencyCycles(c) << 4 | c.ordinal()) + ((long) model.occupancyCycles(c) << 32);
        }
        boolean multiCycle = false;
        for (final TimingClass c : TimingClass.values()) {
            occupancyStallCycles[c.ordinal()] = model.occupancyCycles(c) - 1;
            multiCycle |= model.occupancyCycles(c) > 1;
        }
        countIssues = multiCycle;
        misalignedPolicy = model.misaligned();
        misalignedTrap = misalignedPolicy == CycleModel.Misaligned.TRAP;
        misalignedExtraCycles = misalignedPolicy == CycleModel.Misaligned.EXTRA_CYCLES ? model.misalignedExtraCycles() : 0;
        for (int op = 0; op < OP_COUNT; op++) {
            final Isa.Extension e = Isa.extensionOf(op);
            enabled[op] = e == null || model.extensions().contains(e);
        }
        final int[] accessOps = {LB, LH, LW, LD, LBU, LHU, LWU, SB, SH, SW, SD};
        final int[] sizes = {1, 2, 4, 8, 1, 2, 4, 1, 2, 4, 8};
        for (int i = 0; i < accessOps.length; i++) {
            final int op = accessOps[i];
            access[op] = (64 - 8 * sizes[i]) | (op == LBU || op == LHU || op == LWU ? ACCESS_UNSIGNED : 0)
                | (Isa.timingOf(op) == TimingClass.LOAD_SUBWORD ? ACCESS_SUBWORD : 0)
                | (misalignedPolicy == CycleModel.Misaligned.PERFORM ? 0 : sizes[i] - 1) << ACCESS_ALIGN_SHIFT;
        }
        for (int op = 0; op < OP_COUNT; op++) {
            timing[op] |= (long) access[op] << 48;
        }
        fetchLineShift = model.memory() == null ? 12 : Math.min(12, Integer.numberOfTrailingZeros(model.memory().l1i().lineBytes()));
        divDataDependent = model.divDataDependent();
        bhtPredictor = model.predictor() == CycleModel.Predictor.BHT;
        redirectPenalty = bhtPredictor ? model.mispredictPenaltyCycles() : model.jumpPenaltyCycles();
        final int bhtEntries = bhtPredictor ? model.bhtEntries() : 1;
        final int btbEntries = bhtPredictor ? model.btbEntries() : 1;
        final int rasLength = Math.max(1, model.rasEntries());
        final int btb = BP_BHT + bhtEntries;
        final int ras = btb + 2 * btbEntries;
        bp = new long[ras + rasLength];
        bp[BP_ON] = bhtPredictor ? 1 : 0;
        bp[BP_TAKEN] = model.takenBranchPenaltyCycles();
        bp[BP_JUMP] = model.jumpPenaltyCycles();
        bp[BP_MISPREDICT] = model.mispredictPenaltyCycles();
        bp[BP_BHT_MASK] = bhtEntries - 1;
        bp[BP_BTB_ENTRIES] = btbEntries;
        bp[BP_BTB] = btb;
        bp[BP_RAS] = ras;
        bp[BP_RAS_ENTRIES] = model.rasEntries();
        bp[BP_RAS_LENGTH] = rasLength;
        java.util.Arrays.fill(bp, btb, btb + btbEntries, -1L);
        environment = null;
        translationKey = (xlen + "/" + java.util.Arrays.toString(timing) + "/" + countIssues + "/" + divDataDependent + "/"
            + java.util.Arrays.toString(enabled) + "/" + fetchLineShift).intern();
    }

    // ---------------------------------------------------------------- accessors

    /** @return 32 or 64 */
    public int xlen() {
        return xlen;
    }

    /** @return mhartid */
    public int hartId() {
        return hartId;
    }

    /** @return the pc (zero-extended) */
    public long pc() {
        return pc;
    }

    /**
     * Sets the pc.
     *
     * @param pc address
     */
    public void setPc(final long pc) {
        this.pc = pc & addrMask;
    }

    /**
     * Reads an integer register.
     *
     * @param r 0 to 31
     * @return its value, sign-extended from XLEN
     */
    public long reg(final int r) {
        return r == 0 ? 0 : x[r];
    }

    /**
     * Writes an integer register (x0 stays 0).
     *
     * @param r 0 to 31
     * @param v value (sign-extended from XLEN on RV32)
     */
    public void setReg(final int r, final long v) {
        if (r != 0) {
            x[r] = (v << sextShift) >> sextShift;
        }
    }

    /** @return the memory */
    public Memory memory() {
        return memory;
    }

    /**
     * Sets what ecalls and tohost stores reach.
     *
     * @param env environment, or {@code null} for none (ecall then traps; tohost is ignored)
     */
    public void setEnvironment(final Environment env) {
        this.environment = env;
    }

    /**
     * Chooses what {@code ecall} does.
     *
     * @param on {@code true}: the environment handles it as a system call (Linux user-mode
     *           style, and every other exception is fatal); {@code false}: it traps to mtvec
     */
    public void setSystemCalls(final boolean on) {
        this.systemCalls = on;
    }

    /** @return cycles: the cycle at which the next instruction may issue (= cycles elapsed) */
    public long cycles() {
        return cycles;
    }

    /**
     * Sets the hart's cycle counter (used by a core that interleaves harts).
     *
     * @param c cycle
     */
    void setCycles(final long c) {
        cycles = c;
    }

    /** @return instructions retired */
    public long instret() {
        return instret;
    }

    /**
     * Stall cycles charged to a class: the cycles instructions waited for an operand produced by
     * an instruction of this class (load-use, multiply and divide latency), plus this class's
     * issue occupancy beyond one cycle for every issue of it (Ibex's two-cycle loads, stores and
     * multiplies), since the hart was created.
     *
     * @param c class
     * @return cycles, at least 0
     */
    public long stallCycles(final TimingClass c) {
        return stalls[c.ordinal()] + issues(c) * occupancyStallCycles[c.ordinal()];
    }

    /**
     * Instructions of a class that issued: retired ones plus those that raised an exception (a
     * fetch fault issues nothing). Counted only when the cycle model has a class that occupies
     * the pipeline more than one cycle; otherwise nothing needs them, and this returns 0 for every
     * class but ALU, which then gets every issue.
     *
     * @param c class
     * @return count, at least 0
     */
    long issues(final TimingClass c) {
        switch (c) {
            case BRANCH: return issuedBranch;
            case JAL: return issuedJal;
            case JALR: return issuedJalr;
            case LOAD: return issuedLoad;
            case LOAD_SUBWORD: return issuedLoadSubword;
            case STORE: return issuedStore;
            case MUL: return issuedMul;
            case MULH: return issuedMulh;
            case DIV: return issuedDiv;
            case CSR: return issuedCsr;
            case AMO: return issuedAmo;
            case FENCE: return issuedFence;
            case SYSTEM: return issuedSystem;
            default: // ALU: every other issue
                return instret + faultedIssues - issuedBranch - issuedJal - issuedJalr - issuedLoad
                    - issuedLoadSubword - issuedStore - issuedMul - issuedMulh - issuedDiv - issuedCsr
                    - issuedAmo - issuedFence - issuedSystem;
        }
    }

    /**
     * Cycles the hart waited for instruction-cache lines: each time its pc enters a cache line
     * other than its last fetch's, the core's L1I is asked ({@link MemoryHierarchy#fetch}); a
     * miss delays the next issue by the serving level's latency minus the L1I hit latency. Always
     * 0 on a model without a memory hierarchy, or for code in a region the hierarchy does not time.
     *
     * @return cycles, at least 0
     */
    public long fetchStallCycles() {
        return fetchStallCycles;
    }

    /** @return cycles lost to control flow (mispredictions, taken branches, jumps, traps) */
    public long controlPenaltyCycles() {
        return controlStallCycles;
    }

    /** @return why the hart halted, or {@link HaltReason#NONE} */
    public HaltReason haltReason() {
        return haltReason;
    }

    /** @return whether the hart halted */
    public boolean halted() {
        return haltReason != HaltReason.NONE;
    }

    /** @return exit status when {@link HaltReason#EXIT} */
    public int exitCode() {
        return exitCode;
    }

    /** @return the unhandled exception when {@link HaltReason#FAULT}, else {@code null} */
    public Fault fault() {
        return fault;
    }

    /**
     * Halts the hart as an exit (for environments).
     *
     * @param code exit status
     */
    public void exit(final int code) {
        exitCode = code;
        haltReason = HaltReason.EXIT;
    }

    /**
     * Makes a halted hart runnable again (exit or fault forgotten, registers, CSRs, counters and
     * predictor state kept), so an embedding can call into the same program many times: the uNIC
     * emulator runs one firmware handler per PCC event on a hart and ends each with an
     * {@code ecall} that halts it.
     */
    public void resume() {
        haltReason = HaltReason.NONE;
        fault = null;
        exitCode = 0;
        lastTrapInstret = -1;
        reservation = -1;
        pendingCause = -1;
        trapped = false;
    }

    /**
     * Makes {@link #run} return right after entering a trap (single-stepping for traces).
     *
     * @param on whether to stop after a trap entry
     */
    void setStopAfterTrap(final boolean on) {
        stopAfterTrap = on;
    }

    /** @return whether the last {@link #run} ended on a trap entry (clears the flag) */
    boolean takeTrapped() {
        final boolean b = trapped;
        trapped = false;
        return b;
    }

    /**
     * The cycle at which a decoded instruction would issue now (for traces).
     *
     * @param decoded packed decode
     * @return issue cycle
     */
    long issueCycle(final long decoded) {
        final int ctl = (int) decoded;
        return Math.max(cycles, Math.max(x[READY + ((ctl >>> 14) & 31)], x[READY + ((ctl >>> 19) & 31)]) >> 4);
    }

    void setYieldOnStall(final boolean on) {
        yieldOnStall = on;
    }

    long readyAt() {
        return readyAt;
    }

    void setReadyAt(final long c) {
        readyAt = c;
    }

    /**
     * {@code sun.misc.Unsafe} (module jdk.unsupported, exported and open to every module, so no
     * {@code --add-exports} flag is needed, unlike Agrona's {@code UnsafeApi}, which reaches
     * {@code jdk.internal.misc}: {@code riscv run} and riscv-core's users run without the flags).
     */
    private static final sun.misc.Unsafe UNSAFE;
    /** Byte offset of a {@code long[]}'s element 0, for {@link #at} and {@link #set}. */
    private static final long LONG_ARRAY_BASE;

    static {
        try {
            final java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = (sun.misc.Unsafe) f.get(null);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LONG_ARRAY_BASE = UNSAFE.arrayBaseOffset(long[].class);
        if (UNSAFE.arrayIndexScale(long[].class) != 8) {
            throw new ExceptionInInitializerError("long[] elements are not 8 bytes apart");
        }
    }

    /**
     * Reads {@code a[i]} without the bounds check ({@code sun.misc.Unsafe}): {@link #run} uses it
     * only where the index is masked below the array's length (registers and ready tags: 5- or 6-bit
     * fields into {@link #x}, which holds 97; ops: 8 bits into {@link #timing}, 256; decode slots:
     * 11 bits into a page's 2,048; stall classes: 4 bits into {@link #stalls}, 16). C2 cannot
     * remove those checks itself (it does not know a field array's length), and they cost a spilled
     * length reload, a compare and a branch per access on the per-instruction path.
     *
     * @param a array
     * @param i index, 0 .. a.length - 1 (not checked)
     * @return the element
     */
    private static long at(final long[] a, final int i) {
        return UNSAFE.getLong(a, LONG_ARRAY_BASE + ((long) i << 3));
    }

    /**
     * Writes {@code a[i] = v} without the bounds check (see {@link #at}).
     *
     * @param a array
     * @param i index, 0 .. a.length - 1 (not checked)
     * @param v value
     */
    private static void set(final long[] a, final int i, final long v) {
        UNSAFE.putLong(a, LONG_ARRAY_BASE + ((long) i << 3), v);
    }

    private long sext(final long v) {
        return (v << sextShift) >> sextShift;
    }

    // ---------------------------------------------------------------- the interpreter

    /**
     * Runs until {@link #instret()} reaches {@code maxInstret}, the hart halts, or (when a core
     * interleaves threads) the next instruction must wait for an operand.
     *
     * @param maxInstret absolute retired-instruction count to stop at
     */
    public void run(final long maxInstret) {
        if (engine == Engine.TRANSLATE && (maxInstret - instret > 1 || stepBlocks)) {
            // one instruction (a core interleaving threads, a profile or trace single-stepping): the
            // interpreter, without the dispatch loop's look-ups
            runTranslated(maxInstret);
        } else {
            interpret(maxInstret, false);
        }
    }

    /**
     * The interpreter: {@link #run}'s loop, one instruction at a time (the reference engine, and
     * the translator's fallback for what it does not translate).
     *
     * @param maxInstret absolute retired-instruction count to stop at
     * @param keepPair   keep the L1I line pair of the previous call (the translator's dispatch loop,
     *                   inside one {@link #run} call: no other thread used the L1I since)
     */
    private void interpret(final long maxInstret, final boolean keepPair) {
        if (haltReason != HaltReason.NONE) {
            return;
        }
        final long[] x = this.x;
        final long[] timing = this.timing;
        final long[] stalls = this.stalls;
        final boolean count = this.countIssues;
        final long amask = this.addrMask;
        final int xs = this.sextShift;
        final int xlen = this.xlen;
        long pc = this.pc;
        long now = this.cycles;
        long n = this.instret;
        DecodedPage page = this.fetchPage;
        // no page: a base whose page cannot hold pc, so the first fetch looks pc up (Long.MIN_VALUE
        // would be the page of an RV64 pc at 2^63)
        long pageBase = page == null ? pc + DecodedPage.PAGE_BYTES : page.base;
        long[] decoded = page == null ? null : page.decoded;
        long fetchBase = this.fetchBase;
        // the window's size biased by Long.MIN_VALUE, so one signed compare is an unsigned one
        long fetchLimit = this.fetchBytes + Long.MIN_VALUE;
        // no other line of a pair yet: each run call starts without one, since other threads of
        // the core may have used the L1I since the last
        if (!keepPair) {
            this.fetchAltBytes = 0;
        }
        MemoryRegion dreg = this.dataRegion;
        while (n < maxInstret) {
            // pc left the fetch window: its page (flat models) or its L1I line (hierarchy models)
            if (pc - fetchBase + Long.MIN_VALUE >= fetchLimit) {
                final long altBase = this.fetchAltBase;
                final long altLimit = this.fetchAltBytes + Long.MIN_VALUE;
                if (pc - altBase + Long.MIN_VALUE < altLimit) {
                    // into the other line of the pair: an L1I hit (fetchWindow's ping-pong case),
                    // counted now and credited later; the two windows swap (fields, not locals: a
                    // local more across the loop costs every instruction a spill)
                    this.fetchAltBase = fetchBase;
                    this.fetchAltBytes = fetchLimit - Long.MIN_VALUE;
                    fetchBase = altBase;
                    fetchLimit = altLimit;
                    this.fetchHits++;
                } else {
                    if (((pc - pageBase) >>> 12) != 0) {
                        page = pageFor(pc);
                        if (page == null) {
                            pc = exception(pc, CAUSE_FETCH_ACCESS, pc, n);
                            now += redirectPenalty + 1;
                            controlStallCycles += redirectPenalty;
                            // no window and no page: the next fetch (the handler's) looks its pc up
                            // afresh, wherever it is (FetchAfterTrapTest)
                            pageBase = pc + DecodedPage.PAGE_BYTES;
                            fetchBase = Long.MIN_VALUE;
                            fetchLimit = Long.MIN_VALUE;
                            if (haltReason != HaltReason.NONE || stopAfterTrap) {
                                trapped = true;
                                break;
                            }
                            continue;
                        }
                        pageBase = page.base;
                        decoded = page.decoded;
                    }
                    final int miss = fetchWindow(page, pc);
                    fetchBase = this.fetchBase;
                    fetchLimit = this.fetchBytes + Long.MIN_VALUE;
                    if (miss > 0) {
                        fetchStallCycles += miss;
                        if (yieldOnStall) {
                            readyAt = now + miss; // the slots go to other threads while the line comes
                            yielded = true;
                            break;
                        }
                        now += miss;
                    }
                }
            }
            final int slot = (int) (pc - pageBase) >>> 1;
            long d = at(decoded, slot & 2047);
            if (d == 0) {
                d = page.decode(slot, xlen);
                if (d == DecodedPage.FETCH_FAULT) {
                    pc = exception(pc, CAUSE_FETCH_ACCESS, pc, n);
                    now += redirectPenalty + 1;
                    controlStallCycles += redirectPenalty;
                    if (haltReason != HaltReason.NONE || stopAfterTrap) {
                        trapped = true;
                        break;
                    }
                    continue;
                }
                if (slot == 2047 && ((d >>> 24) & 7) == 4 && page.regionOffset + 4096L < page.region.sizeBytes) {
                    page.region.page(page.regionOffset + 4096L); // straddler: stores to the next page must reach the hook
                }
            }
            final int ctl = (int) d;
            final int op = ctl & 0xff;
            final int rd = (ctl >>> 8) & 63;
            final int rs1 = (ctl >>> 14) & 31;
            final int rs2 = (ctl >>> 19) & 31;
            final long imm = d >> 32;
            long t = now;
            final long r = Math.max(at(x, READY + rs1), at(x, READY + rs2));
            if (r >> 4 > t) {
                final long rc = r >> 4;
                final int sc = (int) r & 15;
                set(stalls, sc, at(stalls, sc) + rc - t);
                if (yieldOnStall) {
                    readyAt = rc;
                    yielded = true;
                    break;
                }
                t = rc;
            }
            long npc = pc + ((ctl >>> 24) & 7);
            final long tm = at(timing, op);
            set(x, READY + rd, (t << 4) + (int) tm);
            long next = t + ((tm >>> 32) & 0xffff);
            int exc = -1;
            long tval = 0;
            switch (op) {
                case LUI:
                    set(x, rd, imm);
                    break;
                case AUIPC:
                    set(x, rd, ((pc + imm) << xs) >> xs);
                    break;
                // Jumps and branches share one case: C2 hoists an expression that several cases
                // share (here the predictor's hash of pc and its fields) above the switch, where
                // every instruction would pay for it; in one case it stays there.
                case JAL: case JALR: case BEQ: case BNE: case BLT: case BGE: case BLTU: case BGEU: {
                    if (op >= BEQ) {
                        if (count) {
                            issuedBranch++;
                        }
                        // pairs (beq, bne), (blt, bge), (bltu, bgeu): the second of each pair negates
                        final int k = op - BEQ;
                        final long bias = k >= 4 ? Long.MIN_VALUE : 0; // unsigned compare
                        final long a = at(x, rs1);
                        final long b = at(x, rs2);
                        final boolean taken = (k < 2 ? a == b : a + bias < b + bias) ^ (k & 1) != 0;
                        if (taken) {
                            npc = (pc + imm) & amask;
                        }
                        next += branch(pc, taken, npc);
                        break;
                    }
                    if (count) {
                        if (op == JAL) {
                            issuedJal++;
                        } else {
                            issuedJalr++;
                        }
                    }
                    final long target = op == JAL ? (pc + imm) & amask : (at(x, rs1) + imm) & ~1L & amask;
                    set(x, rd, (npc << xs) >> xs);
                    next += jump(pc, target, rd == 1 || rd == 5, op == JALR && rd == SINK && (rs1 == 1 || rs1 == 5), npc);
                    npc = target;
                    break;
                }
                case LB: case LH: case LW: case LD: case LBU: case LHU: case LWU: {
                    final int acc = (int) (tm >>> 48);
                    if (count) {
                        if ((acc & ACCESS_SUBWORD) != 0) {
                            issuedLoadSubword++;
                        } else {
                            issuedLoad++;
                        }
                    }
                    final long a = (at(x, rs1) + imm) & amask;
                    final long o = a - dreg.base;
                    // fast: 8 bytes readable in a region without latency, and aligned when the model
                    // wants it (acc >>> 8 is size - 1 then, else 0); the value is cut to size by shifts
                    if (o >= 0 && o <= dreg.fastLast8 && (a & acc >>> ACCESS_ALIGN_SHIFT) == 0) {
                        final long v = (long) MemoryRegion.LONG.get(dreg.bytes, (int) o);
                        final int sh = acc & ACCESS_SHIFT_MASK;
                        set(x, rd, (acc & ACCESS_UNSIGNED) != 0 ? (v << sh) >>> sh : (v << sh) >> sh);
                    } else if (o >= 0 && o <= dreg.cachedLast8 && (a & acc >>> ACCESS_ALIGN_SHIFT) == 0) {
                        // a region timed by a cache hierarchy: the same read; an access to the
                        // thread's last L1D line is a hit (counted here, no call), else ask the tags
                        final long v = (long) MemoryRegion.LONG.get(dreg.bytes, (int) o);
                        final int sh = acc & ACCESS_SHIFT_MASK;
                        set(x, rd, (acc & ACCESS_UNSIGNED) != 0 ? (v << sh) >>> sh : (v << sh) >> sh);
                        final MemoryHierarchy mh = dreg.hierarchy;
                        final int cur = mh.current;
                        if (a >>> mh.l1dLineShift == mh.lastL1dLine[cur]) {
                            mh.servedLoads[cur * MemoryHierarchy.LEVELS]++;
                        } else {
                            set(x, READY + rd, at(x, READY + rd) + ((long) mh.extraCycles(a, 8 - (sh >>> 3), false, t) << 4));
                        }
                    } else {
                        exc = slowLoad(a, op, rd, t);
                        dreg = dataRegion;
                        tval = a;
                    }
                    break;
                }
                case SB: case SH: case SW: case SD: {
                    if (count) {
                        issuedStore++;
                    }
                    final int acc = (int) (tm >>> 48);
                    final int size = 1 << (op - SB);
                    final long a = (at(x, rs1) + imm) & amask;
                    final long o = a - dreg.base;
                    if (o >= 0 && o <= dreg.storeLast1 + 1 - size && (a & acc >>> ACCESS_ALIGN_SHIFT) == 0) { // o + size could overflow
                        dreg.put((int) o, size, at(x, rs2));
                        if (dreg.pages[(int) (o >>> 12)] != null && storeHook(dreg, o, size, a)) {
                            exc = STOP;
                        }
                    } else {
                        exc = slowStore(a, size, at(x, rs2));
                        next += slowExtra;
                        slowExtra = 0;
                        dreg = dataRegion;
                        tval = a;
                    }
                    break;
                }
                case ADDI:
                    set(x, rd, at(x, rs1) + imm);
                    break;
                case SLTI:
                    set(x, rd, at(x, rs1) < imm ? 1 : 0);
                    break;
                case SLTIU:
                    set(x, rd, at(x, rs1) + Long.MIN_VALUE < imm + Long.MIN_VALUE ? 1 : 0);
                    break;
                case XORI:
                    set(x, rd, at(x, rs1) ^ imm);
                    break;
                case ORI:
                    set(x, rd, at(x, rs1) | imm);
                    break;
                case ANDI:
                    set(x, rd, at(x, rs1) & imm);
                    break;
                case SLLI:
                    set(x, rd, at(x, rs1) << imm);
                    break;
                case SRLI:
                    set(x, rd, at(x, rs1) >>> imm);
                    break;
                case SRAI:
                    set(x, rd, at(x, rs1) >> imm);
                    break;
                case ADD:
                    set(x, rd, at(x, rs1) + at(x, rs2));
                    break;
                case SUB:
                    set(x, rd, at(x, rs1) - at(x, rs2));
                    break;
                case SLL:
                    set(x, rd, at(x, rs1) << at(x, rs2));
                    break;
                case SLT:
                    set(x, rd, at(x, rs1) < at(x, rs2) ? 1 : 0);
                    break;
                case SLTU:
                    set(x, rd, at(x, rs1) + Long.MIN_VALUE < at(x, rs2) + Long.MIN_VALUE ? 1 : 0);
                    break;
                case XOR:
                    set(x, rd, at(x, rs1) ^ at(x, rs2));
                    break;
                case SRL:
                    set(x, rd, at(x, rs1) >>> at(x, rs2));
                    break;
                case SRA:
                    set(x, rd, at(x, rs1) >> at(x, rs2));
                    break;
                case OR:
                    set(x, rd, at(x, rs1) | at(x, rs2));
                    break;
                case AND:
                    set(x, rd, at(x, rs1) & at(x, rs2));
                    break;
                case ADDIW:
                    set(x, rd, (int) (at(x, rs1) + imm));
                    break;
                case SLLIW:
                    set(x, rd, (int) at(x, rs1) << imm);
                    break;
                case SRLIW:
                    set(x, rd, (int) at(x, rs1) >>> imm);
                    break;
                case SRAIW:
                    set(x, rd, (int) at(x, rs1) >> imm);
                    break;
                case ADDW:
                    set(x, rd, (int) (at(x, rs1) + at(x, rs2)));
                    break;
                case SUBW:
                    set(x, rd, (int) (at(x, rs1) - at(x, rs2)));
                    break;
                case SLLW:
                    set(x, rd, (int) at(x, rs1) << (int) at(x, rs2));
                    break;
                case SRLW:
                    set(x, rd, (int) at(x, rs1) >>> (int) at(x, rs2));
                    break;
                case SRAW:
                    set(x, rd, (int) at(x, rs1) >> (int) at(x, rs2));
                    break;
                case MUL:
                    if (count) {
                        issuedMul++;
                    }
                    set(x, rd, at(x, rs1) * at(x, rs2));
                    break;
                case MULH:
                    if (count) {
                        issuedMulh++;
                    }
                    set(x, rd, Math.multiplyHigh(at(x, rs1), at(x, rs2)));
                    break;
                case MULHSU: {
                    if (count) {
                        issuedMulh++;
                    }
                    final long a = at(x, rs1);
                    final long b = at(x, rs2);
                    set(x, rd, Math.multiplyHigh(a, b) + ((b >> 63) & a));
                    break;
                }
                case MULHU: {
                    if (count) {
                        issuedMulh++;
                    }
                    final long a = at(x, rs1);
                    final long b = at(x, rs2);
                    set(x, rd, Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a));
                    break;
                }
                case MULW:
                    if (count) {
                        issuedMul++;
                    }
                    set(x, rd, (int) at(x, rs1) * (int) at(x, rs2));
                    break;
                case MULH32:
                    if (count) {
                        issuedMulh++;
                    }
                    set(x, rd, (int) ((at(x, rs1) * at(x, rs2)) >> 32));
                    break;
                case MULHSU32:
                    if (count) {
                        issuedMulh++;
                    }
                    set(x, rd, (int) ((at(x, rs1) * (at(x, rs2) & 0xffffffffL)) >> 32));
                    break;
                case MULHU32:
                    if (count) {
                        issuedMulh++;
                    }
                    set(x, rd, (int) (((at(x, rs1) & 0xffffffffL) * (at(x, rs2) & 0xffffffffL)) >>> 32));
                    break;
                case DIV: case DIVU: case REM: case REMU: case DIVW: case DIVUW: case REMW: case REMUW: {
                    if (count) {
                        issuedDiv++;
                    }
                    final long a = at(x, rs1);
                    final long b = at(x, rs2);
                    set(x, rd, divide(op, a, b));
                    if (divDataDependent) {
                        set(x, READY + rd, (t + divCycles(op, a, b)) << 4 | TimingClass.DIV.ordinal());
                    }
                    break;
                }
                case LR_W: case SC_W: case AMOSWAP_W: case AMOADD_W: case AMOXOR_W: case AMOAND_W: case AMOOR_W:
                case AMOMIN_W: case AMOMAX_W: case AMOMINU_W: case AMOMAXU_W:
                case LR_D: case SC_D: case AMOSWAP_D: case AMOADD_D: case AMOXOR_D: case AMOAND_D: case AMOOR_D:
                case AMOMIN_D: case AMOMAX_D: case AMOMINU_D: case AMOMAXU_D: {
                    if (count) {
                        issuedAmo++;
                    }
                    final long v = amo(op, at(x, rs1) & amask, at(x, rs2), t);
                    if (pendingCause >= 0) {
                        exc = pendingCause;
                        tval = pendingTval;
                        pendingCause = -1;
                    } else {
                        set(x, rd, v);
                        set(x, READY + rd, at(x, READY + rd) + ((long) slowExtra << 4));
                        dreg = dataRegion;
                        if (haltReason != HaltReason.NONE) {
                            exc = STOP;
                        }
                    }
                    break;
                }
                case FENCE:
                    if (count) {
                        issuedFence++;
                    }
                    break;
                case WFI:
                    if (count) {
                        issuedSystem++;
                    }
                    break;
                case FENCE_I:
                    if (count) {
                        issuedFence++;
                    }
                    memory.clearDecoded();
                    break;
                case ECALL:
                    if (count) {
                        issuedSystem++;
                    }
                    if (systemCalls && environment != null) {
                        this.pc = pc;
                        leaveFetchPair();
                        if (!environment.ecall(this)) {
                            if (haltReason == HaltReason.NONE) {
                                haltReason = HaltReason.EXIT;
                            }
                            exc = STOP;
                        }
                    } else {
                        exc = CAUSE_ECALL_M;
                    }
                    break;
                case EBREAK:
                    if (count) {
                        issuedSystem++;
                    }
                    exc = CAUSE_BREAKPOINT;
                    tval = pc;
                    break;
                case MRET:
                    if (count) {
                        issuedSystem++;
                    }
                    mstatus = (mstatus & MSTATUS_MPIE) != 0 ? mstatus | MSTATUS_MIE | MSTATUS_MPIE : (mstatus & ~MSTATUS_MIE) | MSTATUS_MPIE;
                    npc = mepc & amask;
                    next += redirectPenalty;
                    controlStallCycles += redirectPenalty;
                    break;
                case CSRRW: case CSRRS: case CSRRC: case CSRRWI: case CSRRSI: case CSRRCI:
                    if (count) {
                        issuedCsr++;
                    }
                    if (!csr(op, (int) imm, rd, rs1, t, n)) {
                        exc = CAUSE_ILLEGAL;
                        tval = wordAt(pc) & 0xffffffffL;
                    }
                    break;
                case ANDN: case ORN: case XNOR: case CLZ: case CLZW: case CTZ: case CTZW: case CPOP: case CPOPW: case MAX:
                case MAXU: case MIN: case MINU: case SEXT_B: case SEXT_H: case ZEXT_H: case ROL: case ROLW: case ROR: case RORW:
                case RORI: case RORIW: case ORC_B: case REV8:
                case BCLR: case BCLRI: case BEXT: case BEXTI: case BINV: case BINVI: case BSET: case BSETI:
                    if (enabled[op]) {
                        set(x, rd, bitManipulation(op, at(x, rs1), at(x, rs2), (int) imm));
                    } else {
                        exc = CAUSE_ILLEGAL; // the model does not have Zbb / Zbs
                        tval = wordAt(pc) & 0xffffffffL;
                    }
                    break;
                default: // ILLEGAL
                    if (count) {
                        issuedSystem++;
                    }
                    exc = CAUSE_ILLEGAL;
                    tval = imm & 0xffffffffL;
                    break;
            }
            if (exc >= 0) {
                if (exc == STOP) {
                    pc = npc;
                    now = next;
                    n++;
                    break;
                }
                faultedIssues++;
                pc = exception(pc, exc, tval, n);
                now = next + redirectPenalty;
                controlStallCycles += redirectPenalty;
                if (haltReason != HaltReason.NONE || stopAfterTrap) {
                    trapped = true;
                    break;
                }
                continue;
            }
            pc = npc;
            now = next;
            n++;
        }
        creditFetchHits();
        this.pc = pc;
        this.cycles = now;
        this.instret = n;
        this.fetchPage = page;
        this.fetchBase = fetchBase;
        this.fetchBytes = fetchLimit - Long.MIN_VALUE;
        this.dataRegion = dreg;
    }

    // ---------------------------------------------------------------- the block translator

    /**
     * The translator's dispatch loop ({@link Engine#TRANSLATE}): at each pc inside the current fetch
     * window it runs the page's translated block ({@link BlockTranslator}) when the whole block fits
     * the instruction budget, else one instruction of the interpreter. The state after each step is
     * the interpreter's after the same instructions (register values and ready tags, cycles,
     * stalls, predictor, caches): a block runs only inside one fetch window (so the interpreter
     * would not look the L1I up inside it), and hands any instruction whose outcome is not the
     * fast path's (a load or store the fast path does not serve, a store to a page with decoded
     * code, an operand stall of a thread that yields on stalls) back to the interpreter before
     * touching any state for it.
     */
    private void runTranslated(final long maxInstret) {
        if (haltReason != HaltReason.NONE) {
            return;
        }
        fetchAltBytes = 0; // as interpret() starts: no other line of a pair yet
        while (instret < maxInstret && haltReason == HaltReason.NONE) {
            final long p = pc;
            if (p - fetchBase + Long.MIN_VALUE >= fetchBytes + Long.MIN_VALUE) {
                if (p - fetchAltBase + Long.MIN_VALUE < fetchAltBytes + Long.MIN_VALUE) {
                    swapFetchLines(); // interpret()'s ping-pong entry into the other line of the pair
                } else if (!interpretOne(maxInstret) || stepBlocks) {
                    return;
                } else {
                    continue;
                }
            }
            final DecodedPage page = fetchPage;
            final int slot = (int) (p - page.base) >>> 1;
            TranslatedBlock[] blocks = page.blocks;
            if (blocks == null) {
                blocks = new TranslatedBlock[DecodedPage.PAGE_BYTES / 2];
                page.blocks = blocks;
            }
            TranslatedBlock b = blocks[slot];
            if (b == null || b.key != translationKey) {
                b = translateAfter <= 1 ? BlockTranslator.translate(this, page, slot) : new TranslatedBlock.Cold(translationKey);
                blocks[slot] = b;
            } else if (b instanceof TranslatedBlock.Cold c && ++c.entries >= translateAfter) {
                b = BlockTranslator.translate(this, page, slot);
                blocks[slot] = b;
            }
            if (b.length == 0 || instret + b.length > maxInstret) {
                if (!interpretOne(maxInstret) || stepBlocks) {
                    return;
                }
                continue;
            }
            // a block that loops back to its own start runs again while the budget holds it (not
            // when the harness compares after every block)
            final long r = b.run(this, stepBlocks && !chainInSteps ? b.length : maxInstret - instret);
            translatedInstret += r >>> 1;
            if ((r & 1) != 0 && !interpretOne(maxInstret)) {
                return; // the block handed an instruction back, and the interpreter yielded or stopped on it
            }
            if (stepBlocks) {
                break;
            }
        }
        creditFetchHits();
    }

    /** The fetch unit enters the other line of its pair: the two swap and it counts as a hit. */
    private void swapFetchLines() {
        final long b = fetchAltBase;
        final long l = fetchAltBytes;
        fetchAltBase = fetchBase;
        fetchAltBytes = fetchBytes;
        fetchBase = b;
        fetchBytes = l;
        fetchHits++;
    }

    /**
     * A translated block's next instruction starts at {@code pc}, in the block's page: what the
     * interpreter does there when pc is outside the fetch window (the other line of a pair: a hit,
     * counted; else {@link #fetchWindow}, whose L1I miss cycles are returned for the block to add
     * to its cycle). Called only for harts that do not yield on stalls.
     *
     * @param pc the instruction's address, in {@link #fetchPage}
     * @return L1I miss cycles, 0 when none
     */
    int enterLine(final long pc) {
        if (pc - fetchBase + Long.MIN_VALUE < fetchBytes + Long.MIN_VALUE) {
            return 0;
        }
        if (pc - fetchAltBase + Long.MIN_VALUE < fetchAltBytes + Long.MIN_VALUE) {
            swapFetchLines();
            return 0;
        }
        final int miss = fetchWindow(fetchPage, pc);
        fetchStallCycles += miss;
        return miss;
    }

    /**
     * Up to {@link #INTERPRET_RUN} instructions of the interpreter for {@link #runTranslated}.
     *
     * @return whether the dispatch loop may go on: false when the hart yielded its slot on a stall,
     *         stopped after a trap ({@link #setStopAfterTrap}), or halted
     */
    private boolean interpretOne(final long maxInstret) {
        yielded = false;
        // a few instructions at a time (one when the harness compares each step): what the
        // translator leaves to the interpreter tends to come in runs (calls into runtime code)
        interpret(stepBlocks ? instret + 1 : Math.min(maxInstret, instret + INTERPRET_RUN), true);
        if (yielded || haltReason != HaltReason.NONE) {
            return false;
        }
        return !(trapped && stopAfterTrap);
    }

    /**
     * Chooses the execution engine ({@link Engine}); both give the same state, cycles and counters
     * after every instruction, and may be switched between {@link #run} calls.
     *
     * @param e the engine
     */
    public void setEngine(final Engine e) {
        engine = java.util.Objects.requireNonNull(e);
    }

    /** @return the execution engine */
    public Engine engine() {
        return engine;
    }

    /**
     * Instructions that retired inside translated blocks (the rest ran in the interpreter): 0 with
     * {@link Engine#INTERP}.
     *
     * @return count, at most {@link #instret()}
     */
    public long translatedInstructions() {
        return translatedInstret;
    }

    // ---- helpers of the interpreter (kept small so the JIT inlines the hot ones) ----

    /**
     * The pc left the fetch window: sets the new one ({@link #fetchBase}, {@link #fetchBytes}) in
     * its page and, when the page's region is timed by a hierarchy, looks the new line up in the
     * selected core's L1I. Kept out of {@link #run} so the interpreter loop stays small.
     *
     * @return stall cycles of an L1I miss, 0 on a hit or without a hierarchy
     */
    private int fetchWindow(final DecodedPage page, final long pc) {
        creditFetchHits();
        final long pageBase = page.base;
        final MemoryHierarchy mh = page.region.hierarchy;
        fetchAltBytes = 0;
        if (fetchLineShift == 12 || mh == null) {
            // no L1I times this page (a flat model, or an untimed region): the window is the page
            fetchBase = pageBase;
            fetchBytes = DecodedPage.PAGE_BYTES;
            return 0;
        }
        // a new L1I line (clipped to the page, for regions not page-aligned)
        final long line = pc >>> fetchLineShift << fetchLineShift;
        fetchBase = Math.max(line, pageBase);
        fetchBytes = Math.min(line + (1L << fetchLineShift), pageBase + DecodedPage.PAGE_BYTES) - fetchBase;
        // the line before the last one this hart fetched, still in its way of the L1I: a hit,
        // re-stamped in place (what Tags.access does on a hit), no full lookup
        final long lineNo = pc >>> fetchLineShift;
        final int core = mh.currentCore;
        final MemoryHierarchy.Tags l1i = mh.l1i[core];
        final int pw = fetchPrevWay;
        int miss = 0;
        final int way;
        if (lineNo == fetchPrevLine && l1i.tag[pw] == lineNo) {
            l1i.stamp[pw] = ++l1i.clock;
            mh.servedFetches[core * MemoryHierarchy.LEVELS]++;
            way = pw;
        } else {
            miss = mh.fetch(core, pc);
            way = l1i.way;
        }
        fetchPrevLine = fetchLastLine;
        fetchPrevWay = fetchLastWay;
        fetchLastLine = lineNo;
        fetchLastWay = way;
        if (fetchPrevLine >= 0 && l1i.tag[fetchPrevWay] == fetchPrevLine) {
            pairWindow(mh, pageBase);
        }
        return miss;
    }

    /**
     * After {@link #fetchWindow}: {@link #fetchPrevLine} is still in its way of the L1I; when it is
     * another line than {@link #fetchLastLine} and (part of) it lies in this page, it becomes
     * {@link #run}'s other window ({@link #fetchAltBase}), entered without a call.
     */
    private void pairWindow(final MemoryHierarchy mh, final long pageBase) {
        final long prev = fetchPrevLine;
        if (prev == fetchLastLine) {
            return;
        }
        final long prevStart = prev << fetchLineShift;
        final long altBase = Math.max(prevStart, pageBase);
        final long altEnd = Math.min(prevStart + (1L << fetchLineShift), pageBase + DecodedPage.PAGE_BYTES);
        if (altEnd > altBase) {
            fetchAltBase = altBase;
            fetchAltBytes = altEnd - altBase;
            fetchHierarchy = mh;
        }
    }

    /**
     * Before control leaves {@link #run}'s interpreter loop for code that might look at the L1I or
     * its counters (a trap, an environment call, the tohost hook): credits the hits counted inline
     * and drops the pair, so the next line entry is a full {@link #fetchWindow} lookup.
     */
    private void leaveFetchPair() {
        creditFetchHits();
        fetchAltBytes = 0;
    }

    /** Credits the L1I hits {@link #run} counted inline ({@link #fetchHits}), if any. */
    private void creditFetchHits() {
        if (fetchHits != 0) {
            creditFetchHits(fetchHits);
        }
    }

    /**
     * Credits the L1I hits {@link #run} counted inline (entries alternating between
     * {@link #fetchPrevLine} and {@link #fetchLastLine}, the first into the former) exactly as
     * that many {@link #fetchWindow} ping-pong hits would have: the two lines swap roles once per
     * entry, each entry re-stamps its line with the next L1I clock tick, and each counts as a hit
     * served by the L1 ({@link MemoryHierarchy#servedFetches}). The L1I, its clock and the
     * counters are the same afterwards as with one {@link #fetchWindow} call per entry.
     *
     * @param hits entries, at least 1
     */
    private void creditFetchHits(final long hits) {
        fetchHits = 0;
        final MemoryHierarchy mh = fetchHierarchy;
        final int core = mh.currentCore;
        final MemoryHierarchy.Tags l1i = mh.l1i[core];
        if ((hits & 1) != 0) {
            final long line = fetchLastLine;
            final int way = fetchLastWay;
            fetchLastLine = fetchPrevLine;
            fetchLastWay = fetchPrevWay;
            fetchPrevLine = line;
            fetchPrevWay = way;
        }
        l1i.clock += hits;
        l1i.stamp[fetchLastWay] = l1i.clock;
        if (hits >= 2) {
            l1i.stamp[fetchPrevWay] = l1i.clock - 1;
        }
        mh.servedFetches[core * MemoryHierarchy.LEVELS + MemoryHierarchy.L1] += hits;
    }

    /**
     * A load outside the cached fast region, to a region with latency, or misaligned when the
     * model does not perform misaligned accesses for free.
     *
     * @return -1 done, {@link #CAUSE_LOAD_ACCESS} or {@link #CAUSE_LOAD_MISALIGNED} (the caller
     *         sets mtval)
     */
    private int slowLoad(final long a, final int op, final int rd, final long t) {
        final int acc = access[op];
        final int sh = acc & ACCESS_SHIFT_MASK;
        final int size = (64 - sh) >> 3;
        if (misaligned(a, size)) {
            return CAUSE_LOAD_MISALIGNED;
        }
        final MemoryRegion r = region(a, size);
        if (r == null) {
            return CAUSE_LOAD_ACCESS;
        }
        final int extra = slowExtra + (r.fastLast1 >= 0 ? 0 : r.extraCycles(a, size, false, t));
        x[READY + rd] += (long) extra << 4;
        final long v = r.get((int) (a - r.base), size);
        x[rd] = (acc & ACCESS_UNSIGNED) != 0 ? (v << sh) >>> sh : v;
        return -1;
    }

    /**
     * A store outside the cached fast region, or misaligned when the model does not perform
     * misaligned accesses for free (extra cycles are left in {@link #slowExtra}, for the caller's
     * issue occupancy).
     *
     * @return -1 done, {@link #STOP} (the store asked the hart to halt: tohost),
     *         {@link #CAUSE_STORE_ACCESS} or {@link #CAUSE_STORE_MISALIGNED} (the caller sets mtval)
     */
    private int slowStore(final long a, final int size, final long v) {
        if (misaligned(a, size)) {
            return CAUSE_STORE_MISALIGNED;
        }
        final MemoryRegion r = region(a, size);
        if (r == null) {
            return CAUSE_STORE_ACCESS;
        }
        final long o = a - r.base;
        r.put((int) o, size, v);
        return storeHook(r, o, size, a) ? STOP : -1;
    }

    /**
     * The model's rule for a load or store that is not naturally aligned (Volume I §2.6).
     *
     * @return {@code true}: raise address-misaligned; {@code false}: perform it, with
     *         {@link #slowExtra} set to its extra cycles (0 when aligned or free)
     */
    private boolean misaligned(final long a, final int size) {
        slowExtra = 0;
        if ((a & (size - 1)) == 0 || misalignedPolicy == CycleModel.Misaligned.PERFORM) {
            return false;
        }
        slowExtra = misalignedExtraCycles;
        return misalignedTrap;
    }

    /**
     * @return the region holding the access (remembered as the fast data region when it has no
     *         latency or a hierarchy's), or null
     */
    private MemoryRegion region(final long a, final int size) {
        final MemoryRegion r = memory.find(a, size);
        if (r != null && r.storeLast1 >= 0) {
            dataRegion = r;
        }
        return r;
    }

    /**
     * A translated block's store to a page with decoded code or the tohost watch: the
     * interpreter's store hook.
     *
     * @return whether the block must end after the store: a halt was requested, or the store
     *         dropped translated blocks (the block itself may be one)
     */
    boolean storeFromBlock(final MemoryRegion r, final long o, final int size, final long a) {
        r.droppedBlocks = false;
        final boolean halt = storeHook(r, o, size, a);
        return halt || r.droppedBlocks;
    }

    /** After a store to a page with decoded code or the tohost watch. @return halt requested */
    private boolean storeHook(final MemoryRegion r, final long o, final int size, final long a) {
        r.invalidate(o, size);
        memory.breakReservations(a, size);
        final long w = memory.watchAddress();
        if (a < w + 8 && w < a + size && environment != null) {
            final MemoryRegion wr = memory.find(w, 8);
            leaveFetchPair();
            if (wr != null && environment.toHost(this, wr.get((int) (w - wr.base), 8))) {
                if (haltReason == HaltReason.NONE) {
                    haltReason = HaltReason.EXIT;
                }
                return true;
            }
        }
        return false;
    }

    private DecodedPage pageFor(final long pc) {
        final MemoryRegion r = memory.find(pc, 2);
        if (r == null) {
            return null;
        }
        final long off = pc - r.base;
        final DecodedPage p = r.page(off);
        // a page shorter than 4 KiB at the region's end faults in decode()
        return p;
    }

    private int wordAt(final long pc) {
        final MemoryRegion r = memory.find(pc, 4);
        if (r != null) {
            return (int) r.get((int) (pc - r.base), 4);
        }
        final MemoryRegion r2 = memory.find(pc, 2);
        return r2 == null ? 0 : (int) r2.get((int) (pc - r2.base), 2) & 0xffff;
    }

    private long exception(final long pc, final int cause, final long tval, final long n) {
        leaveFetchPair();
        if (systemCalls) {
            fault = new Fault(pc, cause, tval);
            haltReason = HaltReason.FAULT;
            return pc;
        }
        if (lastTrapInstret == n) {
            // a second exception before any instruction retired: the handler itself faults (or there is none)
            fault = new Fault(trapPc, trapCause, trapTval);
            haltReason = HaltReason.FAULT;
            return pc;
        }
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
     * A conditional branch's lost cycles: without a predictor, the taken penalty when taken; with one,
     * the BHT's 2-bit counter and the BTB's tag predict taken, and a wrong prediction costs the
     * mispredict penalty. Updates the counter (and the BTB on a taken branch). {@link #bp} is read
     * and written unchecked ({@link #at}, {@link #set}): its settings are fixed at construction,
     * and every index stays inside it by that construction (BHT index masked by entries - 1, BTB
     * index below its entries, RAS top below its length).
     */
    int branch(final long pc, final boolean taken, final long target) {
        final long[] p = bp;
        if (at(p, BP_ON) == 0) {
            if (taken) {
                final int c = (int) at(p, BP_TAKEN);
                controlStallCycles += c;
                return c;
            }
            return 0;
        }
        final int i = BP_BHT + ((int) (pc >>> 1) & (int) at(p, BP_BHT_MASK));
        final long c = at(p, i);
        final int b = (int) at(p, BP_BTB) + btbIndex(pc, (int) at(p, BP_BTB_ENTRIES));
        final boolean predictedTaken = c >= 2 && at(p, b) == pc;
        if (taken) {
            set(p, i, c == 3 ? 3 : c + 1);
            set(p, b, pc);
            set(p, b + (int) at(p, BP_BTB_ENTRIES), target);
        } else {
            set(p, i, c == 0 ? 0 : c - 1);
        }
        if (predictedTaken != taken) {
            final int m = (int) at(p, BP_MISPREDICT);
            controlStallCycles += m;
            return m;
        }
        return 0;
    }

    /**
     * A jump's lost cycles: without a predictor, the jump penalty; with one, a return pops the RAS
     * (when not empty) and other jumps look the BTB up (and update it); a call pushes its link; a
     * wrong target costs the mispredict penalty.
     */
    int jump(final long pc, final long target, final boolean call, final boolean ret, final long link) {
        final long[] p = bp;
        if (at(p, BP_ON) == 0) {
            final int c = (int) at(p, BP_JUMP);
            controlStallCycles += c;
            return c;
        }
        final int rasBase = (int) at(p, BP_RAS);
        final int rasLength = (int) at(p, BP_RAS_LENGTH);
        boolean hit;
        if (ret && at(p, BP_RAS_COUNT) > 0) {
            final int top = (int) at(p, BP_RAS_TOP);
            hit = at(p, rasBase + top) == target;
            set(p, BP_RAS_TOP, top == 0 ? rasLength - 1 : top - 1);
            set(p, BP_RAS_COUNT, at(p, BP_RAS_COUNT) - 1);
        } else {
            final int entries = (int) at(p, BP_BTB_ENTRIES);
            final int b = (int) at(p, BP_BTB) + btbIndex(pc, entries);
            hit = at(p, b) == pc && at(p, b + entries) == target;
            set(p, b, pc);
            set(p, b + entries, target);
        }
        if (call && at(p, BP_RAS_ENTRIES) > 0) {
            final int top = (int) at(p, BP_RAS_TOP) == rasLength - 1 ? 0 : (int) at(p, BP_RAS_TOP) + 1;
            set(p, BP_RAS_TOP, top);
            set(p, rasBase + top, link);
            if (at(p, BP_RAS_COUNT) < rasLength) {
                set(p, BP_RAS_COUNT, at(p, BP_RAS_COUNT) + 1);
            }
        }
        if (!hit) {
            final int m = (int) at(p, BP_MISPREDICT);
            controlStallCycles += m;
            return m;
        }
        return 0;
    }

    private static int btbIndex(final long pc, final int entries) {
        final long h = ((pc >>> 1) * 0x9E3779B97F4A7C15L) >>> 32;
        return (int) ((h * entries) >>> 32);
    }

    static long divide(final int op, final long a, final long b) {
        switch (op) {
            case DIV: return b == 0 ? -1 : a / b;
            case DIVU: return b == 0 ? -1 : Long.divideUnsigned(a, b);
            case REM: return b == 0 ? a : a % b;
            case REMU: return b == 0 ? a : Long.remainderUnsigned(a, b);
            case DIVW: {
                final int ai = (int) a;
                final int bi = (int) b;
                return bi == 0 ? -1 : ai / bi;
            }
            case DIVUW: {
                final int bi = (int) b;
                return bi == 0 ? -1 : Integer.divideUnsigned((int) a, bi);
            }
            case REMW: {
                final int bi = (int) b;
                return bi == 0 ? (int) a : (int) a % bi;
            }
            default: { // REMUW
                final int bi = (int) b;
                return bi == 0 ? (int) a : Integer.remainderUnsigned((int) a, bi);
            }
        }
    }

    /**
     * Data-dependent divide latency of a 1-bit-per-cycle divider with early out (E31 manual §3.3:
     * "between a 2-cycle and 33-cycle result latency, depending on the operand values"): one
     * cycle per quotient bit (the dividend's significant bits beyond the divisor's) plus one,
     * from 2 (divisor larger than dividend, or zero) to width + 1. The per-bit rule is our model.
     */
    static int divCycles(final int op, final long a, final long b) {
        final boolean word = op == DIVW || op == DIVUW || op == REMW || op == REMUW;
        final boolean signed = op == DIV || op == REM || op == DIVW || op == REMW;
        final int width = word ? 32 : 64;
        long ua = word ? (signed ? Math.abs((long) (int) a) : a & 0xffffffffL) : (signed ? Math.abs(a) : a);
        long ub = word ? (signed ? Math.abs((long) (int) b) : b & 0xffffffffL) : (signed ? Math.abs(b) : b);
        if (ub == 0) {
            return 2;
        }
        final int q = Math.max(0, Long.numberOfLeadingZeros(ub) - Long.numberOfLeadingZeros(ua) + 1);
        return Math.max(2, Math.min(width + 1, q + 1));
    }

    /**
     * The Zbb and Zbs operations ("RISC-V Bit-Manipulation ISA-extensions" 1.0.0, chapter 3, each
     * instruction's "Operation"). Registers hold XLEN values sign-extended; RV32's clz, ctz, cpop,
     * rol, ror and rori execute as the W forms, and results that may set bit 31 are sign-extended.
     *
     * @param op  a Zbb or Zbs op
     * @param a   rs1's value
     * @param b   rs2's value (0 for the unary and immediate forms)
     * @param imm shift amount of the immediate forms, 0 to XLEN - 1
     * @return the value for rd
     */
    long bitManipulation(final int op, final long a, final long b, final int imm) {
        final int index = (int) b & (xlen - 1);
        switch (op) {
            case ANDN: return a & ~b;
            case ORN: return a | ~b;
            case XNOR: return ~(a ^ b);
            case CLZ: return Long.numberOfLeadingZeros(a);
            case CLZW: return Integer.numberOfLeadingZeros((int) a);
            case CTZ: return Long.numberOfTrailingZeros(a);
            case CTZW: return Integer.numberOfTrailingZeros((int) a);
            case CPOP: return Long.bitCount(a);
            case CPOPW: return Integer.bitCount((int) a);
            case MAX: return Math.max(a, b);
            case MAXU: return Long.compareUnsigned(a, b) >= 0 ? a : b;
            case MIN: return Math.min(a, b);
            case MINU: return Long.compareUnsigned(a, b) <= 0 ? a : b;
            case SEXT_B: return (byte) a;
            case SEXT_H: return (short) a;
            case ZEXT_H: return a & 0xffff;
            case ROL: return Long.rotateLeft(a, (int) b);
            case ROLW: return Integer.rotateLeft((int) a, (int) b);
            case ROR: return Long.rotateRight(a, (int) b);
            case RORW: return Integer.rotateRight((int) a, (int) b);
            case RORI: return Long.rotateRight(a, imm);
            case RORIW: return Integer.rotateRight((int) a, imm);
            case ORC_B: {
                long r = 0;
                for (int i = 0; i < 64; i += 8) {
                    if ((a >>> i & 0xff) != 0) {
                        r |= 0xffL << i;
                    }
                }
                return sext(r);
            }
            case REV8: return xlen == 64 ? Long.reverseBytes(a) : Integer.reverseBytes((int) a);
            case BCLR: return sext(a & ~(1L << index));
            case BCLRI: return sext(a & ~(1L << imm));
            case BEXT: return a >>> index & 1;
            case BEXTI: return a >>> imm & 1;
            case BINV: return sext(a ^ 1L << index);
            case BINVI: return sext(a ^ 1L << imm);
            case BSET: return sext(a | 1L << index);
            default: return sext(a | 1L << imm); // BSETI
        }
    }

    private long amo(final int op, final long a, final long src, final long t) {
        final boolean dbl = op >= LR_D;
        final int size = dbl ? 8 : 4;
        final int base = dbl ? op - (LR_D - LR_W) : op;
        if ((a & (size - 1)) != 0) {
            pendingCause = base == LR_W ? CAUSE_LOAD_MISALIGNED : CAUSE_STORE_MISALIGNED;
            pendingTval = a;
            return 0;
        }
        final MemoryRegion r = region(a, size);
        if (r == null) {
            pendingCause = base == LR_W ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS;
            pendingTval = a;
            return 0;
        }
        slowExtra = r.fastLast1 >= 0 ? 0 : r.extraCycles(a, size, false, t);
        final int o = (int) (a - r.base);
        final long old = r.get(o, size);
        if (base == LR_W) {
            reservation = a;
            // the reserved bytes' page gets a decoded page, so every hart's store to it reaches storeHook
            r.page(o);
            memory.addReserver(this);
            return old;
        }
        if (base == SC_W) {
            // unprivileged spec §8.2: an SC invalidates the hart's reservation whether it
            // succeeds or fails, so a failed SC between an LR and its SC makes that SC fail too
            final boolean reserved = reservation == a;
            reservation = -1;
            if (!reserved) {
                return 1;
            }
            r.put(o, size, src);
            storeHookAfterAmo(r, o, size, a);
            return 0;
        }
        final long s = dbl ? src : (int) src;
        final long v;
        switch (base) {
            case AMOSWAP_W: v = s; break;
            case AMOADD_W: v = old + s; break;
            case AMOXOR_W: v = old ^ s; break;
            case AMOAND_W: v = old & s; break;
            case AMOOR_W: v = old | s; break;
            case AMOMIN_W: v = Math.min(old, s); break;
            case AMOMAX_W: v = Math.max(old, s); break;
            case AMOMINU_W: v = Long.compareUnsigned(dbl ? old : old & 0xffffffffL, dbl ? s : s & 0xffffffffL) < 0 ? old : s; break;
            default: v = Long.compareUnsigned(dbl ? old : old & 0xffffffffL, dbl ? s : s & 0xffffffffL) > 0 ? old : s; break;
        }
        r.put(o, size, v);
        storeHookAfterAmo(r, o, size, a);
        return old;
    }

    private void storeHookAfterAmo(final MemoryRegion r, final int o, final int size, final long a) {
        if (r.pages[o >>> 12] != null) {
            storeHook(r, o, size, a); // a halt request leaves haltReason set; the loop stops after retiring
        }
    }

    // ---- CSRs ----

    private boolean csr(final int op, final int csrImm, final int rd, final int rs1, final long t, final long n) {
        final int csr = csrImm & 0xfff;
        final boolean imm = op >= CSRRWI;
        final long src = imm ? (csrImm >>> 12) & 31 : x[rs1];
        final boolean write = op == CSRRW || op == CSRRWI || (imm ? ((csrImm >>> 12) & 31) != 0 : rs1 != 0);
        if (write && (csr >>> 10) == 3) {
            return false;
        }
        final boolean rv32 = xlen == 32;
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
        x[rd] = sext(old);
        return true;
    }

    // ---- CSR views for tests and the command ----

    /** @return mcause */
    public long mcause() {
        return mcause;
    }

    /** @return mepc */
    public long mepc() {
        return mepc;
    }

    /** @return mtval */
    public long mtval() {
        return mtval;
    }

    /** @return mtvec */
    public long mtvec() {
        return mtvec;
    }
}
