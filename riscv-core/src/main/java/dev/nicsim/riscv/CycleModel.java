package dev.nicsim.riscv;


import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An in-order, single-issue pipeline's timing: per {@link TimingClass}, the <b>result latency</b>
 * (cycles from an instruction's issue until a dependent instruction may issue: load-use and
 * multi-cycle interlocks) and the <b>issue occupancy</b> (cycles before the same thread's next
 * instruction may issue: a multi-cycle op that stalls the pipeline), plus the branch predictor.
 *
 * <p>Timing rules (applied by {@link Hart}): an instruction issues at
 * {@code max(next free cycle, ready[rs1], ready[rs2])}; then
 * {@code ready[rd] = issue + latency} (+ the memory region's extra cycles for loads and AMOs, or
 * the data-dependent divide latency), and the next instruction may issue at
 * {@code issue + occupancy} (+ a control-flow penalty). Cycle 0 is the first issue; pipeline fill
 * is not counted. Write-after-write interlocks are not modelled. Besides timing, a model states
 * its ISA options: what a misaligned load or store does ({@link #misaligned()}) and which optional
 * extensions (Zbb, Zbs) it has ({@link #extensions()}); e31 and ibex have none.
 *
 * <p>Named models:
 * <ul>
 * <li>{@link #E31}: SiFive E31 core as in the SiFive FE310-G000 Manual v2p3, §3.2 (instruction
 * fetch unit: 40-entry BTB, 128-entry BHT of 2-bit counters, 2-entry RAS, correctly predicted
 * control flow costs nothing, a misprediction 3 cycles) and §3.3 (execution pipeline: 5 stages,
 * fully bypassed, one-cycle result latency except LW 2, LB/LBU/LH/LHU 3, CSR reads 3,
 * MUL/MULH/MULHU/MULHSU 5, DIV/DIVU/REM/REMU 2 to 33 depending on the operands (a 1-bit-per-cycle
 * divider)). The E31 is RV32; RV64 programs use the same table, and a 64-bit divide takes up to 65
 * cycles. LD/LWU are charged as LW, AMOs as LW (assumption), the BTB is modelled direct-mapped
 * (assumption). Misaligned loads and stores trap ({@link Misaligned#TRAP}: SiFive's E3-series
 * core manuals state that misaligned accesses are not supported in hardware and trap, for
 * software emulation; our reading, the FE310-G000 manual's §3.2-3.3 do not say it).</li>
 * <li>{@link #IBEX}: lowRISC Ibex, 2-stage configuration "small" with the fast multiplier, from
 * the Ibex documentation "Pipeline Details" (stall cycles per instruction type): loads and stores
 * at least 1 stall cycle, MUL 2 and MULH 3 stall cycles, divide/remainder 37 stall cycles, taken
 * branches and jumps at least 2 cycles (1 stall: the target is fetched after ID/EX), not-taken
 * branches and CSR accesses no stall; no branch predictor. Results are written at the end of
 * ID/EX, so there are no load-use interlocks; latency equals occupancy. Misaligned loads and
 * stores cost 1 more cycle ({@link Misaligned#EXTRA_CYCLES}; Ibex documentation "Load-Store
 * Unit": a misaligned access is split into two aligned ones; simplification: charged for every
 * misaligned access, also one that does not cross a 32-bit word).</li>
 * <li>a custom table from a YAML file ({@link #load}): see {@code docs/riscv-core.md}.</li>
 * </ul>
 *
 * <p>Thread-safety: immutable.
 */
public final class CycleModel {
    /** Branch predictor kinds. */
    public enum Predictor {
        /** No predictor: fall-through is fetched; taken branches and all jumps pay a penalty. */
        NOT_TAKEN,
        /** BHT of 2-bit counters for direction, BTB for targets, RAS for returns. */
        BHT
    }

    /**
     * What a load or store whose address is not a multiple of its size does (Volume I §2.6 lets
     * an implementation perform it, slowly or not, or raise an address-misaligned exception).
     * LR/SC and AMOs always trap when misaligned (Volume I §8.2, §8.4).
     */
    public enum Misaligned {
        /** Performed at the cost of an aligned access (as Ibex splits it in hardware, uncounted). */
        PERFORM,
        /** Performed with {@link #misalignedExtraCycles()} more cycles (loads: result latency; stores: issue). */
        EXTRA_CYCLES,
        /** Raises load (4) or store/AMO (6) address-misaligned, for software to emulate. */
        TRAP
    }

    private final String name;
    private final String source;
    private final Misaligned misaligned;
    private final int misalignedExtraCycles;
    private final Set<Isa.Extension> extensions;
    private final EnumMap<TimingClass, Integer> latency;
    private final EnumMap<TimingClass, Integer> occupancy;
    private final boolean divDataDependent;
    private final Predictor predictor;
    private final int mispredictPenaltyCycles;
    private final int takenBranchPenaltyCycles;
    private final int jumpPenaltyCycles;
    private final int bhtEntries;
    private final int btbEntries;
    private final int rasEntries;
    /** Machine shape and memory (DPA-style models); defaults: one core, one thread, no hierarchy. */
    private int cores = 1;
    private int threadsPerCore = 1;
    /** Lowest {@code clock_hz} a model may state: 1 MHz (a scenario's {@code emulator.clock_ghz} 0.001). */
    public static final long MIN_CLOCK_HZ = 1_000_000L;
    /** Highest {@code clock_hz} a model may state: 100 GHz (a scenario's {@code emulator.clock_ghz} 100). */
    public static final long MAX_CLOCK_HZ = 100_000_000_000L;
    private long clockHz;
    private Core.IssuePolicy issuePolicy = Core.IssuePolicy.FINE_GRAINED;
    private MemoryHierarchy.Config memory;

    /** SiFive E31 (FE310-G000 manual §3.2-3.3). */
    public static final CycleModel E31;
    /** lowRISC Ibex, small configuration, fast multiplier (Ibex docs "Pipeline Details"). */
    public static final CycleModel IBEX;

    static {
        final EnumMap<TimingClass, Integer> l = onesExcept(
            new TimingClass[] {TimingClass.LOAD, TimingClass.LOAD_SUBWORD, TimingClass.CSR, TimingClass.MUL, TimingClass.MULH,
                TimingClass.DIV, TimingClass.AMO},
            2, 3, 3, 5, 5, 33, 2);
        E31 = new CycleModel("e31", "SiFive FE310-G000 Manual v2p3 §3.2-3.3 (E31 core)", l, ones(), true,
            Predictor.BHT, 3, 0, 0, 128, 40, 2).withMisaligned(Misaligned.TRAP, 0);
        final EnumMap<TimingClass, Integer> o = onesExcept(
            new TimingClass[] {TimingClass.LOAD, TimingClass.LOAD_SUBWORD, TimingClass.STORE, TimingClass.AMO, TimingClass.MUL,
                TimingClass.MULH, TimingClass.DIV, TimingClass.FENCE},
            2, 2, 2, 2, 3, 4, 38, 2);
        IBEX = new CycleModel("ibex", "lowRISC Ibex documentation, Pipeline Details (small configuration, fast multiplier)",
            new EnumMap<>(o), o, false, Predictor.NOT_TAKEN, 0, 1, 1, 0, 0, 0).withMisaligned(Misaligned.EXTRA_CYCLES, 1);
    }

    /**
     * One cycle for every class except {@code classes[i]}, which gets {@code cycles[i]}.
     *
     * @throws IllegalArgumentException if the two arrays differ in length (a typo in a built-in model)
     */
    private static EnumMap<TimingClass, Integer> onesExcept(final TimingClass[] classes, final int... cycles) {
        if (classes.length != cycles.length) {
            throw new IllegalArgumentException(classes.length + " timing classes but " + cycles.length + " latencies");
        }
        final EnumMap<TimingClass, Integer> m = ones();
        for (int i = 0; i < classes.length; i++) {
            m.put(classes[i], cycles[i]);
        }
        return m;
    }

    private static EnumMap<TimingClass, Integer> ones() {
        final EnumMap<TimingClass, Integer> m = new EnumMap<>(TimingClass.class);
        for (final TimingClass c : TimingClass.values()) {
            m.put(c, 1);
        }
        return m;
    }

    /**
     * Creates a model.
     *
     * @param name                     name for the summary
     * @param source                   where the numbers come from
     * @param latency                  result latency per class, cycles, 1 to 10000 (missing: 1)
     * @param occupancy                issue occupancy per class, cycles, 1 to 10000 (missing: 1)
     * @param divDataDependent         divide latency from the operands (1 bit per cycle, 2 to XLEN+1)
     *                                 instead of {@code latency[DIV]}
     * @param predictor                branch predictor kind
     * @param mispredictPenaltyCycles  {@link Predictor#BHT}: cycles lost on a misprediction
     * @param takenBranchPenaltyCycles {@link Predictor#NOT_TAKEN}: cycles lost on a taken branch
     * @param jumpPenaltyCycles        {@link Predictor#NOT_TAKEN}: cycles lost on jal/jalr/mret/trap
     * @param bhtEntries               BHT size (rounded down to a power of two), 1 to 10000 for BHT,
     *                                 0 to 10000 (unused) otherwise
     * @param btbEntries               BTB size, 1 to 10000 for BHT, 0 to 10000 (unused) otherwise
     * @param rasEntries               return-address stack depth, 0 for none
     * @throws IllegalArgumentException when a number is out of range
     */
    public CycleModel(final String name, final String source, final Map<TimingClass, Integer> latency,
                      final Map<TimingClass, Integer> occupancy, final boolean divDataDependent, final Predictor predictor,
                      final int mispredictPenaltyCycles, final int takenBranchPenaltyCycles, final int jumpPenaltyCycles,
                      final int bhtEntries, final int btbEntries, final int rasEntries) {
        this.name = name;
        this.source = source;
        this.latency = ones();
        this.occupancy = ones();
        this.latency.putAll(latency);
        this.occupancy.putAll(occupancy);
        for (final TimingClass c : TimingClass.values()) {
            check("latency." + c.name().toLowerCase(Locale.ROOT), this.latency.get(c), 1);
            check("issue." + c.name().toLowerCase(Locale.ROOT), this.occupancy.get(c), 1);
        }
        this.divDataDependent = divDataDependent;
        this.predictor = predictor;
        this.mispredictPenaltyCycles = check("branch.mispredict_penalty", mispredictPenaltyCycles, 0);
        this.takenBranchPenaltyCycles = check("branch.taken_penalty", takenBranchPenaltyCycles, 0);
        this.jumpPenaltyCycles = check("branch.jump_penalty", jumpPenaltyCycles, 0);
        // a BHT predictor needs a table of each; without one they are not read
        final int minTable = predictor == Predictor.BHT ? 1 : 0;
        this.bhtEntries = Integer.highestOneBit(Math.max(1, check("branch.bht_entries", bhtEntries, minTable)));
        this.btbEntries = Math.max(1, check("branch.btb_entries", btbEntries, minTable));
        this.rasEntries = check("branch.ras_entries", rasEntries, 0);
        this.misaligned = Misaligned.PERFORM;
        this.misalignedExtraCycles = 0;
        this.extensions = Set.of();
    }

    /** A copy of {@code m} with other ISA options. */
    private CycleModel(final CycleModel m, final Misaligned misaligned, final int misalignedExtraCycles,
                       final Set<Isa.Extension> extensions) {
        this.name = m.name;
        this.source = m.source;
        this.latency = m.latency;
        this.occupancy = m.occupancy;
        this.divDataDependent = m.divDataDependent;
        this.predictor = m.predictor;
        this.mispredictPenaltyCycles = m.mispredictPenaltyCycles;
        this.takenBranchPenaltyCycles = m.takenBranchPenaltyCycles;
        this.jumpPenaltyCycles = m.jumpPenaltyCycles;
        this.bhtEntries = m.bhtEntries;
        this.btbEntries = m.btbEntries;
        this.rasEntries = m.rasEntries;
        this.misaligned = misaligned;
        this.misalignedExtraCycles = misaligned == Misaligned.EXTRA_CYCLES
            ? check("misaligned_extra_cycles", misalignedExtraCycles, 1) : 0;
        this.extensions = Set.copyOf(extensions);
        this.cores = m.cores;
        this.threadsPerCore = m.threadsPerCore;
        this.clockHz = m.clockHz;
        this.issuePolicy = m.issuePolicy;
        this.memory = m.memory;
    }

    /**
     * This model with another rule for misaligned loads and stores.
     *
     * @param policy      what a misaligned load or store does
     * @param extraCycles with {@link Misaligned#EXTRA_CYCLES}: the cost, 1 to 10000 (ignored otherwise)
     * @return a new model; this one is unchanged
     * @throws IllegalArgumentException when extraCycles is out of range for EXTRA_CYCLES
     */
    public CycleModel withMisaligned(final Misaligned policy, final int extraCycles) {
        return new CycleModel(this, policy, extraCycles, extensions);
    }

    /**
     * This model with a set of optional extensions enabled (the others raise illegal-instruction).
     *
     * @param enabled the extensions, possibly empty
     * @return a new model; this one is unchanged
     */
    public CycleModel withExtensions(final Set<Isa.Extension> enabled) {
        return new CycleModel(this, misaligned, misalignedExtraCycles, enabled);
    }

    /** @return the optional extensions this model's harts execute (immutable; empty for e31 and ibex) */
    public Set<Isa.Extension> extensions() {
        return extensions;
    }

    private static int check(final String what, final int v, final int min) {
        if (v < min || v > 10_000) {
            throw new IllegalArgumentException(what + " = " + v + " is out of range [" + min + ", 10000]");
        }
        return v;
    }

    /** @return name ({@code e31}, {@code ibex}, or the YAML's {@code name}) */
    public String name() {
        return name;
    }

    /** @return where the numbers come from */
    public String source() {
        return source;
    }

    /**
     * Result latency of a class.
     *
     * @param c class
     * @return cycles, at least 1
     */
    public int latencyCycles(final TimingClass c) {
        return latency.get(c);
    }

    /**
     * Issue occupancy of a class.
     *
     * @param c class
     * @return cycles, at least 1
     */
    public int occupancyCycles(final TimingClass c) {
        return occupancy.get(c);
    }

    /** @return whether divides take an operand-dependent 2 to XLEN+1 cycles */
    public boolean divDataDependent() {
        return divDataDependent;
    }

    /** @return the predictor kind */
    public Predictor predictor() {
        return predictor;
    }

    /** @return cycles lost on a mispredicted control transfer (BHT predictor) */
    public int mispredictPenaltyCycles() {
        return mispredictPenaltyCycles;
    }

    /** @return cycles lost on a taken branch (no predictor) */
    public int takenBranchPenaltyCycles() {
        return takenBranchPenaltyCycles;
    }

    /** @return cycles lost on a jump, mret or trap entry (no predictor) */
    public int jumpPenaltyCycles() {
        return jumpPenaltyCycles;
    }

    /** @return BHT entries (a power of two) */
    public int bhtEntries() {
        return bhtEntries;
    }

    /** @return BTB entries */
    public int btbEntries() {
        return btbEntries;
    }

    /** @return RAS depth */
    public int rasEntries() {
        return rasEntries;
    }

    /** @return what a misaligned load or store does ({@link Misaligned#PERFORM} unless set) */
    public Misaligned misaligned() {
        return misaligned;
    }

    /** @return extra cycles of a misaligned access under {@link Misaligned#EXTRA_CYCLES}, else 0 */
    public int misalignedExtraCycles() {
        return misalignedExtraCycles;
    }

    /**
     * A copy of this model with a machine shape and memory hierarchy (what {@code bf3-dpa} and
     * YAML models with {@code cores}, {@code threads}, {@code clock_hz}, {@code issue_policy} and
     * {@code memory} keys declare).
     *
     * @param cores          cores per NIC, 1 to 1024
     * @param threadsPerCore hardware threads per core, 1 to 64
     * @param clockHz        core clock, Hz, {@link #MIN_CLOCK_HZ} to {@link #MAX_CLOCK_HZ}, or 0 when not stated
     * @param policy         how the threads of a core share its issue slot
     * @param memoryConfig   the cache hierarchy, or null for flat memory (every load the model's latency)
     * @return the new model
     * @throws IllegalArgumentException when a number is out of range, or the L1D latency differs from
     *                                  the model's load latency
     */
    public CycleModel withMachine(final int cores, final int threadsPerCore, final long clockHz, final Core.IssuePolicy policy,
                                  final MemoryHierarchy.Config memoryConfig) {
        if (cores < 1 || cores > 1024) {
            throw new IllegalArgumentException("cores = " + cores + " is out of range [1, 1024]");
        }
        if (threadsPerCore < 1 || threadsPerCore > 64) {
            throw new IllegalArgumentException("threads = " + threadsPerCore + " is out of range [1, 64]");
        }
        if (clockHz != 0 && (clockHz < MIN_CLOCK_HZ || clockHz > MAX_CLOCK_HZ)) {
            throw new IllegalArgumentException("clock_hz = " + clockHz + " is out of range [" + MIN_CLOCK_HZ + ", " + MAX_CLOCK_HZ
                + "] (1 MHz to 100 GHz, as a scenario's emulator.clock_ghz)");
        }
        if (memoryConfig != null && memoryConfig.l1d().latencyCycles() != latency.get(TimingClass.LOAD)) {
            throw new IllegalArgumentException("memory.l1d.latency = " + memoryConfig.l1d().latencyCycles()
                + " must equal latency.load = " + latency.get(TimingClass.LOAD) + " (the L1D hit is the model's load latency)");
        }
        final CycleModel m = new CycleModel(this, misaligned, misalignedExtraCycles, extensions); // keeps the ISA options
        m.cores = cores;
        m.threadsPerCore = threadsPerCore;
        m.clockHz = clockHz;
        m.issuePolicy = Objects.requireNonNull(policy);
        m.memory = memoryConfig;
        return m;
    }

    /** @return cores per NIC the model describes (1 unless stated) */
    public int cores() {
        return cores;
    }

    /** @return hardware threads per core (1 unless stated) */
    public int threadsPerCore() {
        return threadsPerCore;
    }

    /** @return core clock in Hz, 0 when the model does not state one */
    public long clockHz() {
        return clockHz;
    }

    /** @return how the threads of a core share its issue slot */
    public Core.IssuePolicy issuePolicy() {
        return issuePolicy;
    }

    /** @return the cache hierarchy, or null for flat memory */
    public MemoryHierarchy.Config memory() {
        return memory;
    }

    /** Name of the BlueField-3 DPA model ({@code bf3-dpa.yaml} next to this class). */
    public static final String BF3_DPA = "bf3-dpa";

    /**
     * The BlueField-3 DPA model: {@code dev/nicsim/riscv/bf3-dpa.yaml} on the class path, every
     * number with its source (the published-figures fact sheet) or stated assumption.
     *
     * @return the model (loaded once)
     */
    public static CycleModel bf3Dpa() {
        return Bf3Holder.MODEL;
    }

    private static final class Bf3Holder {
        static final CycleModel MODEL = CycleModelYaml.loadResource(BF3_DPA + ".yaml");
    }

    /**
     * Resolves a {@code --model} argument.
     *
     * @param spec {@code e31}, {@code ibex}, {@code bf3-dpa}, or a YAML file path
     * @return the model
     * @throws IllegalArgumentException with a one-line message when the file is unreadable or bad
     */
    public static CycleModel byName(final String spec) {
        if ("e31".equalsIgnoreCase(spec)) {
            return E31;
        }
        if ("ibex".equalsIgnoreCase(spec)) {
            return IBEX;
        }
        if (BF3_DPA.equalsIgnoreCase(spec)) {
            return bf3Dpa();
        }
        return load(Path.of(spec));
    }

    /**
     * Loads a custom table from a YAML file (format in {@code docs/riscv-core.md} and
     * {@link CycleModelYaml}); snakeyaml is needed only when this is called.
     *
     * @param file YAML file
     * @return the model
     * @throws IllegalArgumentException with a one-line message naming the file and key
     */
    public static CycleModel load(final Path file) {
        return CycleModelYaml.load(file);
    }
}
