package dev.nicsim.riscv;

import static dev.nicsim.riscv.Isa.*;
import static dev.nicsim.riscv.LoadStoreUnit.ACCESS_ALIGN_SHIFT;
import static dev.nicsim.riscv.LoadStoreUnit.ACCESS_SHIFT_MASK;
import static dev.nicsim.riscv.LoadStoreUnit.ACCESS_SUBWORD;
import static dev.nicsim.riscv.LoadStoreUnit.ACCESS_UNSIGNED;
import static dev.nicsim.riscv.Unchecked.at;
import static dev.nicsim.riscv.Unchecked.set;

import java.util.Arrays;
import java.util.Objects;

/**
 * One RISC-V hardware thread (hart): RV32IMAC or RV64IMAC with Zicsr and Zifencei (and, as the
 * model says, Zbb and Zbs) in machine mode, executing pre-decoded instructions and timing them with a {@link CycleModel}.
 *
 * <p><b>Architecture</b> ("The RISC-V Instruction Set Manual" Volume I 20191213 and Volume II
 * 20211203): registers hold XLEN-bit values sign-extended to 64 bits; the machine-mode CSRs are
 * those of {@link CsrFile}; any other CSR, a write to a read-only CSR, and S/U-mode features raise
 * an illegal-instruction exception. Exceptions (Volume II §3.1.15-3.1.17, §3.3.1): instruction
 * access fault (1), illegal instruction (2, mtval = the instruction bits), breakpoint (3, mtval
 * = pc), load/store-AMO address misaligned for LR/SC/AMOs (4/6, mtval = address), load and
 * store/AMO access faults (5/7, mtval = address), ecall from M (11); a trap enters the handler at
 * {@code mtvec.BASE} and {@code mret} returns ({@link CsrFile#trap}, {@link CsrFile#mret}). A
 * misaligned load or store (inside one region) does what the model says
 * ({@link CycleModel#misaligned()}, {@link LoadStoreUnit}). The Zbb and Zbs instructions execute
 * when the model enables them ({@link CycleModel#extensions()}) and raise illegal-instruction
 * otherwise. An exception that the program cannot handle is fatal (the hart halts with a
 * {@link Fault}): in system-call mode every exception but ecall; otherwise a second exception
 * before any instruction retires after the first (e.g. no handler at mtvec).
 *
 * <p><b>Speed</b>: each instruction is decoded once into a {@code long} in the
 * {@link DecodedPage} of its 4 KiB page (per-page arrays, rvemu/rv8 style) and re-decoded only
 * after a store to its bytes or {@code fence.i}. The interpreter loop ({@link #interpret}) keeps
 * pc, cycle and instruction counters in locals and allocates nothing. What the JIT (C2) needs to
 * keep it fast: few arrays and settings live across the loop (register values and ready tags share
 * one array, the per-op timing and load/store bits one {@code long} each), work that only some
 * instructions need stays in one {@code case} (jumps and branches share one), since C2 places an
 * expression that several cases share above the switch, where every instruction pays for it, and
 * the per-instruction array accesses skip the bounds check ({@link Unchecked}), every such index
 * being masked below its array's length. The branch predictor, the fetch unit, the CSR file, the
 * load/store slow paths and the ALU helpers are small final classes ({@link BranchPredictor},
 * {@link FetchUnit}, {@link CsrFile}, {@link LoadStoreUnit}, {@link Alu}) held in final fields, so
 * C2 inlines their methods into the loop. docs/performance.md gives the measured speed and how it
 * is measured.
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
        /** Names by cause number, as Volume II Table 3.6 writes them (null: not raised by this hart). */
        private static final String[] NAMES = {"instruction address misaligned", "instruction access fault",
            "illegal instruction", "breakpoint", "load address misaligned", "load access fault", "store/AMO address misaligned",
            "store/AMO access fault", "environment call from U-mode", null, null, "environment call from M-mode"};

        /** @return the cause's name as the privileged spec writes it, or "exception N" for another cause */
        public String causeName() {
            return cause >= 0 && cause < NAMES.length && NAMES[cause] != null ? NAMES[cause] : "exception " + cause;
        }
    }

    private static final MemoryRegion NO_REGION = new MemoryRegion("none", 0, 0, 0, null);
    private static final int CLASS_COUNT = TimingClass.values().length;
    /** Internal: the instruction retired and the hart must stop (exit, tohost). */
    static final int STOP = 1 << 20;

    // ---- architectural state ----
    /**
     * Index of register 0's ready tag in {@link #x}: the register values are {@code x[0..32]}
     * (32 is the write sink of x0) and their ready tags {@code x[READY..READY + 32]}, one array so
     * the interpreter loop keeps one array (and one length) in registers instead of two. A ready
     * tag is (cycle its value is ready) << 4 | timing class of its producer; the tags order like
     * the cycles, so one max finds the later operand and its cause.
     */
    static final int READY = 33;
    /**
     * Register values, then their ready tags (see {@link #READY}). Sized for any 6-bit rd field
     * ({@code READY + 64} longs, though decode writes rd 0..32 only), so the interpreter's unchecked
     * accesses ({@link Unchecked}) with indexes masked to 5 or 6 bits stay inside it.
     */
    final long[] x = new long[READY + 64];
    long pc;
    final int xlen;
    final int sextShift;
    final long addrMask;
    /** The machine-mode CSRs, trap entry and mret. */
    private final CsrFile csrs;
    /** The LR reservation's address, or -1 for none ({@link Memory#breakReservations} ends it). */
    long reservation = -1;

    // ---- timing ----
    /**
     * Per op: {@code (latency << 4 | class) + (occupancy << 32) + (access << 48)}: the low word added
     * to {@code issue << 4} is the result's ready tag, bits 32-47 are the issue occupancy (latency
     * and occupancy at most 10000), bits 48-63 are the load or store op's access bits (so
     * the interpreter loop needs no second per-op table).
     */
    final long[] timing = new long[256]; // any 8-bit op field: run() reads it unchecked
    /** Per op: whether the model has it (false for the Zbb and Zbs ops of a model without them). */
    final boolean[] enabled = new boolean[OP_COUNT];
    /** Operand-wait stall cycles per class of the producer the instruction waited for. */
    final long[] stalls = new long[16]; // any 4-bit class field: run() reads it unchecked
    /** Issue occupancy minus one per class (the stall cycles each issue of the class costs). */
    private final int[] occupancyStallCycles = new int[CLASS_COUNT];
    /*
     * Issues per timing class, counted in each op's own case of the interpreter's switch (plain
     * fields: an array element store per instruction there may alias the register file, which
     * keeps C2 from holding register values across it); ALU issues are derived in issues(). Occupancy stalls of a class are
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
    /** Cycles lost to traps and mret (branches and jumps: {@link BranchPredictor#penaltyCycles()}). */
    private long controlStallCycles;
    /**
     * Whether some class occupies the pipeline more than one cycle; when none does (e31) every
     * occupancy stall is 0 and the interpreter counts no issues (nothing would read the counts,
     * and the counter updates would cost every branch, load and store).
     */
    final boolean countIssues;
    final boolean divDataDependent;
    /** Cycles lost on a trap entry or mret: the mispredict penalty with a predictor, else the jump penalty. */
    private final int redirectPenalty;
    /** Branch and jump timing; {@link #run} calls it for every branch and jump. */
    final BranchPredictor predictor;
    long cycles;
    long instret;
    boolean yieldOnStall;
    long readyAt;
    boolean stopAfterTrap;
    boolean trapped;
    /** Set by the interpreter when it gave its slot away on a stall or an L1I miss (yieldOnStall). */
    boolean yielded;
    /** A {@link Core}'s runs of this thread while the other threads cannot issue. */
    final BoundedRun bounded = new BoundedRun(this);
    /**
     * The engine {@link #run} uses: new harts take the system property {@code nicsim.riscv.engine}
     * ({@code interp} or {@code translate}), else {@link Engine#INTERP}.
     */
    private Engine engine = Engine.parse(System.getProperty("nicsim.riscv.engine", "interp"));
    /** The translator engine's dispatch loop and settings. */
    final BlockDispatch dispatch = new BlockDispatch(this);
    /**
     * What a translated block's code depends on besides its instructions (XLEN, the per-op timing
     * words, issue counting, divide latency rule, enabled extensions, fetch line size), interned:
     * harts with equal keys share the blocks of a page, compared by identity.
     */
    final String translationKey;

    /**
     * How {@link #run} executes instructions.
     */
    public enum Engine {
        /** The interpreter: one decoded instruction at a time (the reference). */
        INTERP,
        /** Translated blocks ({@link BlockTranslator}), with the interpreter as fallback. */
        TRANSLATE;

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
    Environment environment;
    private boolean systemCalls;
    /** Loads, stores and AMOs off the fast path. */
    final LoadStoreUnit lsu;
    /** The fetch window and the L1I line pair. */
    final FetchUnit fetch;
    MemoryRegion dataRegion = NO_REGION;
    HaltReason haltReason = HaltReason.NONE;
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
        lsu = new LoadStoreUnit(this, model);
        for (int op = 0; op < OP_COUNT; op++) {
            final Isa.Extension e = Isa.extensionOf(op);
            enabled[op] = e == null || model.extensions().contains(e);
            timing[op] |= (long) lsu.accessBits(op) << 48;
        }
        fetch = new FetchUnit(model);
        divDataDependent = model.divDataDependent();
        redirectPenalty = model.predictor() == CycleModel.Predictor.BHT ? model.mispredictPenaltyCycles() : model.jumpPenaltyCycles();
        predictor = new BranchPredictor(model);
        csrs = new CsrFile(hartId, xlen);
        translationKey = (xlen + "/" + Arrays.toString(timing) + "/" + countIssues + "/" + divDataDependent + "/"
            + Arrays.toString(enabled) + "/" + fetch.lineShift).intern();
    }

    // ---------------------------------------------------------------- accessors

    /** @return 32 or 64 */
    public int xlen() {
        return xlen;
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
        return fetch.stallCycles;
    }

    /** @return cycles lost to control flow (mispredictions, taken branches, jumps, traps) */
    public long controlPenaltyCycles() {
        return controlStallCycles + predictor.penaltyCycles();
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
        csrs.forgetTrap();
        reservation = -1;
        lsu.pendingCause = -1;
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
        return Math.max(cycles, Math.max(x[READY + rs1Of(decoded)], x[READY + rs2Of(decoded)]) >> 4);
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

    // ---------------------------------------------------------------- the interpreter

    /**
     * Runs until {@link #instret()} reaches {@code maxInstret}, the hart halts, or (when a core
     * interleaves threads) the next instruction must wait for an operand.
     *
     * @param maxInstret absolute retired-instruction count to stop at
     */
    public void run(final long maxInstret) {
        if (engine == Engine.TRANSLATE && (maxInstret - instret > 1 || dispatch.stepBlocks)) {
            dispatch.run(maxInstret);
        } else {
            // the interpreter engine, or one instruction (a core interleaving threads, a profile or
            // trace single-stepping): the interpreter, without the dispatch loop's look-ups
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
    void interpret(final long maxInstret, final boolean keepPair) {
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
        DecodedPage page = this.fetch.page;
        // no page: a base whose page cannot hold pc, so the first fetch looks pc up (Long.MIN_VALUE
        // would be the page of an RV64 pc at 2^63)
        long pageBase = page == null ? pc + DecodedPage.PAGE_BYTES : page.base;
        long[] decoded = page == null ? null : page.decoded;
        long fetchBase = this.fetch.base;
        // the window's size biased by Long.MIN_VALUE, so one signed compare is an unsigned one
        long fetchLimit = this.fetch.bytes + Long.MIN_VALUE;
        // no other line of a pair yet: each run call starts without one, since other threads of
        // the core may have used the L1I since the last
        if (!keepPair) {
            this.fetch.altBytes = 0;
        }
        MemoryRegion dreg = this.dataRegion;
        while (n < maxInstret) {
            // pc left the fetch window: its page (flat models) or its L1I line (hierarchy models)
            if (pc - fetchBase + Long.MIN_VALUE >= fetchLimit) {
                final FetchUnit f = this.fetch;
                final long altBase = f.altBase;
                final long altLimit = f.altBytes + Long.MIN_VALUE;
                if (pc - altBase + Long.MIN_VALUE < altLimit) {
                    // into the other line of the pair: an L1I hit (FetchUnit.window's ping-pong
                    // case), counted now and credited later; the two windows swap (fields, not
                    // locals: a local more across the loop costs every instruction a spill)
                    f.altBase = fetchBase;
                    f.altBytes = fetchLimit - Long.MIN_VALUE;
                    fetchBase = altBase;
                    fetchLimit = altLimit;
                    f.hits++;
                } else {
                    if (((pc - pageBase) >>> 12) != 0) {
                        page = memory.decodedPage(pc);
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
                    final int miss = f.window(page, pc);
                    fetchBase = f.base;
                    fetchLimit = f.bytes + Long.MIN_VALUE;
                    if (miss > 0) {
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
            // the fields of Isa's packed decode (Isa.rdOf etc.), unpacked inline
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
                        next += predictor.branch(pc, taken, npc);
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
                    next += predictor.jump(pc, target, rd == 1 || rd == 5, op == JALR && rd == SINK && (rs1 == 1 || rs1 == 5), npc);
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
                        exc = lsu.load(a, op, rd, t);
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
                        if (dreg.pages[(int) (o >>> 12)] != null && lsu.storeHook(dreg, o, size, a)) {
                            exc = STOP;
                        }
                    } else {
                        exc = lsu.store(a, size, at(x, rs2));
                        next += lsu.slowExtra;
                        lsu.slowExtra = 0;
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
                    set(x, rd, Alu.divide(op, a, b));
                    if (divDataDependent) {
                        set(x, READY + rd, (t + Alu.divCycles(op, a, b)) << 4 | TimingClass.DIV.ordinal());
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
                    final LoadStoreUnit u = lsu;
                    final long v = u.amo(op, at(x, rs1) & amask, at(x, rs2), t);
                    if (u.pendingCause >= 0) {
                        exc = u.pendingCause;
                        tval = u.pendingTval;
                        u.pendingCause = -1;
                    } else {
                        set(x, rd, v);
                        set(x, READY + rd, at(x, READY + rd) + ((long) u.slowExtra << 4));
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
                        fetch.leavePair();
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
                    npc = csrs.mret() & amask;
                    next += redirectPenalty;
                    controlStallCycles += redirectPenalty;
                    break;
                case CSRRW: case CSRRS: case CSRRC: case CSRRWI: case CSRRSI: case CSRRCI:
                    if (count) {
                        issuedCsr++;
                    }
                    if (!csr(op, (int) imm, rd, rs1, t, n)) {
                        exc = CAUSE_ILLEGAL;
                        tval = memory.instructionBits(pc) & 0xffffffffL;
                    }
                    break;
                case ANDN: case ORN: case XNOR: case CLZ: case CLZW: case CTZ: case CTZW: case CPOP: case CPOPW: case MAX:
                case MAXU: case MIN: case MINU: case SEXT_B: case SEXT_H: case ZEXT_H: case ROL: case ROLW: case ROR: case RORW:
                case RORI: case RORIW: case ORC_B: case REV8:
                case BCLR: case BCLRI: case BEXT: case BEXTI: case BINV: case BINVI: case BSET: case BSETI:
                    if (enabled[op]) {
                        set(x, rd, Alu.bitManipulation(op, at(x, rs1), at(x, rs2), (int) imm, xlen));
                    } else {
                        exc = CAUSE_ILLEGAL; // the model does not have Zbb / Zbs
                        tval = memory.instructionBits(pc) & 0xffffffffL;
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
        final FetchUnit f = this.fetch;
        f.creditHits();
        this.pc = pc;
        this.cycles = now;
        this.instret = n;
        f.page = page;
        f.base = fetchBase;
        f.bytes = fetchLimit - Long.MIN_VALUE;
        this.dataRegion = dreg;
    }

    /**
     * Chooses the execution engine ({@link Engine}); both give the same state, cycles and counters
     * after every instruction, and may be switched between {@link #run} calls.
     *
     * @param e the engine
     */
    public void setEngine(final Engine e) {
        engine = Objects.requireNonNull(e);
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
        return dispatch.translatedInstret;
    }

    private long exception(final long pc, final int cause, final long tval, final long n) {
        fetch.leavePair();
        final Fault f = systemCalls ? new Fault(pc, cause, tval) : csrs.repeatedTrap(n);
        if (f != null) {
            fault = f;
            haltReason = HaltReason.FAULT;
            return pc;
        }
        return csrs.trap(pc, cause, tval, n);
    }

    private boolean csr(final int op, final int csrImm, final int rd, final int rs1, final long t, final long n) {
        if (!csrs.access(op, csrImm, rs1, x[rs1], t, n)) {
            return false;
        }
        x[rd] = csrs.readValue;
        return true;
    }

    /** @return mcause */
    public long mcause() {
        return csrs.mcause;
    }

    /** @return mepc */
    public long mepc() {
        return csrs.mepc;
    }

    /** @return mtval */
    public long mtval() {
        return csrs.mtval;
    }
}
