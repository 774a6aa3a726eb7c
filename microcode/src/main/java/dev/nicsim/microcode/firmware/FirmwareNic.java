package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.Core;
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.ElfImage;
import dev.nicsim.riscv.Hart;
import dev.nicsim.riscv.Memory;
import dev.nicsim.riscv.MemoryHierarchy;
import dev.nicsim.riscv.TimingClass;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The firmware memory of one NIC's Data Path Accelerator, shared by its cores as a DPA's cores
 * share theirs (firmware/ABI.md §2): the ELF's loaded segments (rounded out to 4 KiB pages, merged
 * where they touch; the thread area of 256 mailbox-and-stack slots is one of them) and the
 * context memory at {@link FirmwareLayout#CONTEXT_BASE}, one 64-byte line per hardware thread,
 * where the flow context of the event being handled sits while its handler runs.
 * The context region's loads cost what the emulator's context-cache model says: the first load
 * of a call costs {@link #contextExtraCycles} (hit or miss latency), the others nothing (the
 * context is local after it), through the hart's per-access latency hook.
 *
 * <p>With a model that has a memory hierarchy ({@code bf3-dpa}) the NIC has one
 * {@link MemoryHierarchy} (L1D per hardware thread, L1I per core, shared L2 and LLC, DRAM) and
 * every load of every region goes through it; the context region's loads are looked up at the
 * flow's home address ({@link #contextHome}: {@link #FLOW_HOME_BASE} + 64 x flow), so a flow's
 * context hits or misses as its line's history says, whichever thread handles it. The emulator's
 * own context-cache costs are then not charged: the hierarchy's are.
 *
 * <p>Calls run one at a time to completion on a hart the caller owns ({@link #call}); the stepped
 * emulator runs a NIC's cores on one thread. The harts' environment calls are
 * {@link FirmwareEcalls}'s ({@code ecall} {@link FirmwareLayout#ECALL_DONE} ends a call); any other
 * exception, or the instruction budget, abandons the call.
 *
 * <p>Thread-safety: not thread-safe; one thread drives all the cores of the NIC.
 */
final class FirmwareNic {
    /** Context memory, bytes: one 64-byte line per hardware thread. */
    static final long CONTEXT_BYTES = 64L * FirmwareLayout.MAX_THREADS;
    /**
     * Where flow contexts live in the memory hierarchy's address space (tags only: no region
     * holds bytes there; the data is copied into the handling thread's context line): flow key k
     * at {@code FLOW_HOME_BASE + 64 k}, beyond any firmware address.
     */
    static final long FLOW_HOME_BASE = 0x10_0000_0000L;
    /** Cores and threads per core the hierarchy is sized for (the 256 hardware-thread ranks). */
    static final int HIERARCHY_CORES = 16;

    /** How a call ended. */
    enum Outcome {
        /** The entry signalled completion. */
        DONE,
        /** An exception: the call was abandoned. */
        FAULT,
        /** The instruction budget ran out: the call was abandoned. */
        BUDGET
    }

    final FirmwareImage image;
    final Memory memory = new Memory();
    final CycleModel model;
    final long contextBase = FirmwareLayout.CONTEXT_BASE;
    final FirmwareDeclarations declarations;
    /** The cache hierarchy, or null for flat-memory models (e31, ibex). */
    final MemoryHierarchy hierarchy;
    /** Per thread rank: home address of the flow context in its context line. */
    private final long[] contextHome = new long[FirmwareLayout.MAX_THREADS];
    /** The environment calls the NIC's harts make. */
    private final FirmwareEcalls ecalls;
    private final long counterValues;
    private final long paramValues;
    private final long slotTable;
    /** Slot of port 0 that runs (the lowest enabled), -1 when none. */
    final int slot;
    /** The simulated NIC behind this firmware, or null (counters read 0). */
    NicPorts ports;
    /** Whether the port state has been written and the port-info calls made. */
    boolean portsUp;
    /** Whether port 0's link is up (a scenario's {@code link_events}); while down its speed reads 0. */
    boolean linkUp = true;
    /** Port 0's speed when no NIC is connected (the first flow's line rate), bits/s; 0 before one is known. */
    private long speedBitsPerSec;
    // per call
    private int contextExtraCycles;
    private boolean contextTouched;
    private long callStartCycle;
    /** Cycles from the call's start to its first context load, -1 if none. */
    long contextAccessCycle;
    /** Cycles the last call took. */
    long lastCycles;
    /** Instructions the last call retired. */
    long lastInstructions;

    /**
     * Builds a NIC's memory from the image and runs the init entry.
     *
     * @param image           the firmware
     * @param model           the cores' cycle model
     * @param rawValues       per declared parameter (in {@link FirmwareDeclarations#parameters()} order), the raw
     *                        value to write after init, or null for the firmware's defaults
     * @param maxInstructions init's instruction budget
     * @param log             receives the firmware's output lines
     * @throws FirmwareException if the image does not fit or the init entry faults or runs out of budget
     */
    FirmwareNic(final FirmwareImage image, final CycleModel model, final long[] rawValues, final long maxInstructions,
                final Consumer<String> log) {
        this.image = image;
        this.model = model;
        this.ecalls = new FirmwareEcalls(this, log);
        final ElfImage elf = image.elf();
        final List<long[]> spans = elf.pageSpans();
        long total = 0;
        for (final long[] sp : spans) {
            total += sp[1] - sp[0];
        }
        if (total > (64L << 20)) {
            throw new FirmwareException(image.path() + ": loadable segments take " + total + " bytes; firmware may take at most 64 MiB");
        }
        hierarchy = model.memory() == null ? null
            : new MemoryHierarchy(model.memory(), HIERARCHY_CORES, FirmwareLayout.MAX_THREADS / HIERARCHY_CORES);
        int i = 0;
        for (final long[] sp : spans) {
            if (hierarchy == null) {
                memory.addRegion("image" + i++, sp[0], sp[1] - sp[0], 0);
            } else {
                memory.addRegion("image" + i++, sp[0], sp[1] - sp[0], hierarchy);
            }
        }
        for (int r = 0; r < contextHome.length; r++) {
            contextHome[r] = contextBase + 64L * r;
        }
        try {
            memory.addRegion("context", contextBase, CONTEXT_BYTES, this::contextLatency);
        } catch (final IllegalArgumentException e) {
            throw new FirmwareException(image.path() + ": the image overlaps the context memory at 0x40000000 (firmware/ABI.md)");
        }
        for (final ElfImage.Segment s : elf.segments()) {
            memory.write(s.address(), s.data());
        }
        image.checkVersion(memory.load(image.symbol(FirmwareLayout.ABI_VERSION_SYMBOL), 4) & 0xFFFF_FFFFL);
        if (memory.find(FirmwareLayout.THREAD_AREA, 1) == null
            || memory.find(FirmwareLayout.THREAD_AREA + FirmwareLayout.MAX_THREADS * FirmwareLayout.THREAD_SLOT_BYTES - 1, 1) == null) {
            throw new FirmwareException(image.path() + ": no thread area at 0x01000000 (firmware/ABI.md)");
        }
        counterValues = image.symbol(FirmwareLayout.COUNTER_VALUES);
        paramValues = image.symbol(FirmwareLayout.PARAM_VALUES);
        slotTable = image.symbol(FirmwareLayout.SLOT_TABLE);

        final Hart h = newHart(0);
        final List<String> failedSetupCalls = new ArrayList<>();
        final Outcome o = callInit(h, maxInstructions, failedSetupCalls);
        if (o != Outcome.DONE) {
            throw new FirmwareException(image.path() + ": doca_pcc_dev_user_init "
                + (o == Outcome.BUDGET ? "did not return within " + maxInstructions + " instructions" : "faulted: " + faultLine(h.fault())));
        }
        int first = -1;
        if (slotTable >= 0) {
            for (int sl = 0; sl < FirmwareLayout.MAX_SLOTS && first < 0; sl++) {
                if (u32(slotTable + (long) sl * FirmwareLayout.SLOT_ROW) != 0) {
                    first = sl;
                }
            }
        }
        slot = first;
        declarations = FirmwareDeclarations.read(memory, image, slotTable, slot, failedSetupCalls);
        if (rawValues != null && declarations.algoIndex() >= 0 && paramValues >= 0) {
            for (int port = 0; port < FirmwareLayout.MAX_PORTS; port++) {
                for (int sl = 0; sl < FirmwareLayout.MAX_SLOTS; sl++) {
                    final long row = slotTable + (long) (port * FirmwareLayout.MAX_SLOTS + sl) * FirmwareLayout.SLOT_ROW;
                    if (u32(row) == 0 || u32(row + 4) != declarations.algoIndex()) {
                        continue;
                    }
                    for (int p = 0; p < rawValues.length; p++) {
                        memory.store(paramValues + 4L * ((port * FirmwareLayout.MAX_SLOTS + sl) * FirmwareLayout.MAX_PARAMS
                            + declarations.paramIds()[p]), 4, rawValues[p]);
                    }
                }
            }
        }
        if (counterValues >= 0) {
            final long n = (long) FirmwareLayout.MAX_THREADS * FirmwareLayout.MAX_PORTS * FirmwareLayout.MAX_SLOTS
                * FirmwareLayout.MAX_COUNTERS * 4;
            for (long a = 0; a < n; a += 8) {
                memory.store(counterValues + a, 8, 0);
            }
        }
    }

    /**
     * The mailbox of a hardware thread.
     *
     * @param rank global hardware-thread index, 0..255
     * @return its address
     */
    static long mailbox(final int rank) {
        return FirmwareLayout.THREAD_AREA + rank * FirmwareLayout.THREAD_SLOT_BYTES;
    }

    /**
     * A hart on this NIC's memory in Linux-syscall mode (so that any exception but {@code ecall}
     * stops it).
     *
     * @param id its {@code mhartid}
     * @return the hart
     */
    Hart newHart(final int id) {
        final Hart h = new Hart(memory, image.elf().xlen(), model, id);
        h.setEnvironment(ecalls);
        h.setSystemCalls(true);
        return h;
    }

    /**
     * Connects the simulated NIC whose port speed and byte counters the firmware reads.
     *
     * @param nicPorts the NIC, or null
     */
    void ports(final NicPorts nicPorts) {
        this.ports = nicPorts;
    }

    /**
     * Reports this NIC's uses of services nicsim does not model ({@link FirmwareServiceLog}).
     *
     * @param log the program's log
     */
    void services(final FirmwareServiceLog log) {
        ecalls.services(log);
    }

    /** @return the connected NIC's host index, or {@link FirmwareFaultLog#NO_HOST} without one (fault records) */
    int host() {
        return ports == null ? FirmwareFaultLog.NO_HOST : ports.host();
    }

    /** @return the connected NIC's simulated time now, ps, or {@link FirmwareFaultLog#NO_TIME} without one (fault records) */
    long nowPs() {
        return ports == null ? FirmwareFaultLog.NO_TIME : ports.nowPs();
    }

    /**
     * Writes the port state ({@code nicsim_pcc_ports}: mask 1, port 0's speed in Gb/s, 0 while its link
     * is down) the DOCA port queries read; marks the ports up (the caller then makes the port-info calls).
     *
     * @param lineRateBitsPerSec speed to use when no NIC is connected (the first flow's line rate); 0 or
     *                           less keeps the one known
     */
    void writePorts(final long lineRateBitsPerSec) {
        portsUp = true;
        if (lineRateBitsPerSec > 0) {
            speedBitsPerSec = lineRateBitsPerSec;
        }
        final long table = image.symbol(FirmwareLayout.PORTS);
        if (table < 0) {
            return;
        }
        final long bps = !linkUp ? 0 : ports != null ? ports.speedBitsPerSec(0) : speedBitsPerSec;
        // the mask keeps port 0 while its link is down: it stays initialised (and DOCA's fls is undefined for 0)
        memory.store(table, 4, 1);
        memory.store(table + 4, 4, Math.round(bps / 1e9));
        for (int p = 1; p < FirmwareLayout.MAX_PORTS; p++) {
            memory.store(table + 4 + 4L * p, 4, 0);
        }
    }

    /**
     * Sets the cost of the next call's first context load.
     *
     * @param extraCycles cycles beyond the model's load latency, at least 0
     */
    void contextExtraCycles(final int extraCycles) {
        contextExtraCycles = extraCycles;
    }

    /**
     * Names the flow whose context the thread's context line holds (its home line in the hierarchy).
     *
     * @param rank    thread rank, 0..255
     * @param flowKey the flow (its QPN on this NIC), 0 to 2^24 - 1
     */
    void contextHome(final int rank, final int flowKey) {
        contextHome[rank] = FLOW_HOME_BASE + 64L * (flowKey & 0xFF_FFFF);
    }

    /**
     * Selects the thread whose L1D the hierarchy charges (solo calls; a {@link Core} selects its own).
     *
     * @param rank thread rank
     */
    void select(final int rank) {
        if (hierarchy != null) {
            hierarchy.select(rank / HIERARCHY_CORES % HIERARCHY_CORES, rank % HIERARCHY_CORES);
        }
    }

    /**
     * A core of hardware threads on this NIC's memory (each in Linux-syscall mode, this NIC as its
     * environment), attached to the hierarchy as core {@code instance mod 16}.
     *
     * @param instance core index
     * @param threads  hardware threads, 1 to 16
     * @return the core
     */
    Core newCore(final int instance, final int threads) {
        final Core c = new Core(memory, image.elf().xlen(), model, threads);
        for (int t = 0; t < threads; t++) {
            c.thread(t).setEnvironment(ecalls);
            c.thread(t).setSystemCalls(true);
        }
        if (hierarchy != null) {
            c.attach(hierarchy, instance % HIERARCHY_CORES);
        }
        return c;
    }

    private int contextLatency(final long address, final int sizeBytes, final boolean store, final long cycle) {
        if (hierarchy != null) {
            final int rank = (int) ((address - contextBase) >>> 6);
            return hierarchy.extraCycles(contextHome[rank] | (address & 63), sizeBytes, store, cycle);
        }
        if (store || contextTouched) {
            return 0;
        }
        contextTouched = true;
        contextAccessCycle = cycle - callStartCycle;
        return contextExtraCycles;
    }

    /**
     * Runs an entry to completion (or until abandoned).
     *
     * @param h               the hart (any state; it is resumed, pc, a0 and a1 set)
     * @param entry           entry address
     * @param mailbox         a0: the thread's mailbox
     * @param context         a1: the flow context (0 for load init)
     * @param maxInstructions budget
     * @return how it ended; {@link #lastCycles}, {@link #lastInstructions}, {@link #contextAccessCycle} describe it
     */
    Outcome call(final Hart h, final long entry, final long mailbox, final long context, final long maxInstructions) {
        prepareCall(h, entry, mailbox, context);
        final long n0 = h.instret();
        h.run(n0 + maxInstructions);
        return finishCall(h, n0);
    }

    /**
     * The DOCA set-up calls whose failures {@link #callInit} reports: the symbol and its argument
     * names (a0, a1, ...; the pointer arguments are shown as addresses). Their signatures are
     * firmware/include/doca_pcc_dev_algo_access.h and nicsim_pcc.h.
     */
    private static final String[][] SETUP_CALLS = {
        {"doca_pcc_dev_algo_init_metadata", "algo", "meta_data", "param_num", "counter_num"},
        {"doca_pcc_dev_algo_init_param", "algo", "param", "default", "max", "min", "permissions"},
        {"doca_pcc_dev_algo_init_counter", "algo", "counter", "max", "permissions"},
        {"doca_pcc_dev_init_algo_slot", "port", "slot", "algo", "enable"},
        {"nicsim_pcc_algo_param_info", "algo", "param", "kind", "unit"},
    };

    /**
     * Runs {@code doca_pcc_dev_user_init} and notes every DOCA set-up call that returned
     * {@code DOCA_PCC_DEV_STATUS_FAIL}, so that a program that ignores the return value still learns
     * that a parameter, counter, algorithm or slot was not declared. When the image
     * defines any of {@link #SETUP_CALLS}, init runs one instruction at a time (as {@link #callStepping}
     * does, so its cycles are the same): at a set-up function's first instruction the arguments,
     * return address and stack pointer are taken; when the pc reaches that return address with the
     * same stack pointer, a non-zero low word of a0 is a failure. Without those symbols init runs as
     * {@link #call}. Only init is watched; handler calls are never stepped for this.
     *
     * @param h               the hart
     * @param maxInstructions budget
     * @param failed          receives one line per failed call, in call order:
     *                        {@code doca_pcc_dev_algo_init_param(algo 0, param 1, default 500, max 100, min 1,
     *                        permissions 1) returned DOCA_PCC_DEV_STATUS_FAIL}
     * @return how init ended
     */
    private Outcome callInit(final Hart h, final long maxInstructions, final List<String> failed) {
        final long[] entries = new long[SETUP_CALLS.length];
        boolean any = false;
        for (int k = 0; k < SETUP_CALLS.length; k++) {
            entries[k] = image.symbol(SETUP_CALLS[k][0]);
            any |= entries[k] >= 0;
        }
        if (!any) {
            return call(h, image.entryInit, FirmwareLayout.THREAD_AREA, 0, maxInstructions);
        }
        prepareCall(h, image.entryInit, FirmwareLayout.THREAD_AREA, 0);
        final long n0 = h.instret();
        final long limit = n0 + maxInstructions;
        final long[] args = new long[6];
        int pending = -1;
        long returnPc = 0;
        long sp = 0;
        while (!h.halted() && h.instret() < limit) {
            final long pc = h.pc();
            if (pending < 0) {
                for (int k = 0; k < entries.length; k++) {
                    if (entries[k] == pc) {
                        pending = k;
                        returnPc = h.reg(1);
                        sp = h.reg(2);
                        for (int i = 0; i < args.length; i++) {
                            args[i] = h.reg(10 + i);
                        }
                        break;
                    }
                }
            } else if (pc == returnPc && h.reg(2) == sp) {
                if ((h.reg(10) & 0xFFFF_FFFFL) != 0) {
                    failed.add(setupCallLine(SETUP_CALLS[pending], args, h.reg(10) & 0xFFFF_FFFFL));
                }
                pending = -1;
            }
            h.run(h.instret() + 1);
        }
        return finishCall(h, n0);
    }

    private static String setupCallLine(final String[] call, final long[] args, final long status) {
        final StringBuilder b = new StringBuilder(call[0]).append('(');
        for (int i = 1; i < call.length; i++) {
            final long v = args[i - 1];
            b.append(i > 1 ? ", " : "").append(call[i]).append(' ');
            if ("meta_data".equals(call[i]) || "unit".equals(call[i])) {
                b.append("0x").append(Long.toHexString(v));
            } else {
                b.append(v & 0xFFFF_FFFFL);
            }
        }
        return b.append(") returned ").append(status == 1 ? "DOCA_PCC_DEV_STATUS_FAIL" : "status " + status).toString();
    }

    /**
     * Runs an entry one instruction at a time, telling the profile each instruction's pc and cycles.
     *
     * @param h               the hart
     * @param entry           entry address
     * @param mailbox         a0
     * @param context         a1
     * @param maxInstructions budget
     * @param profile         receives (pc, cycles) per instruction
     * @return how it ended
     */
    Outcome callStepping(final Hart h, final long entry, final long mailbox, final long context, final long maxInstructions,
                         final FirmwareProfile.Sampler profile) {
        prepareCall(h, entry, mailbox, context);
        final long n0 = h.instret();
        final long limit = n0 + maxInstructions;
        while (!h.halted() && h.instret() < limit) {
            final long pc = h.pc();
            final long c = h.cycles();
            h.run(h.instret() + 1);
            profile.instruction(pc, h.cycles() - c);
        }
        return finishCall(h, n0);
    }

    /**
     * Makes a hart ready to run an entry (resumed, pc, ra = 0, a0, a1), for a {@link Core} to run.
     *
     * @param h       the hart
     * @param entry   entry address
     * @param mailbox a0
     * @param context a1
     */
    static void prepareHart(final Hart h, final long entry, final long mailbox, final long context) {
        h.resume();
        h.setPc(entry);
        h.setReg(1, 0);
        h.setReg(10, mailbox);
        h.setReg(11, context);
    }

    private void prepareCall(final Hart h, final long entry, final long mailbox, final long context) {
        prepareHart(h, entry, mailbox, context);
        contextTouched = false;
        contextAccessCycle = -1;
        callStartCycle = h.cycles();
    }

    private Outcome finishCall(final Hart h, final long n0) {
        lastCycles = h.cycles() - callStartCycle;
        lastInstructions = h.instret() - n0;
        if (!h.halted()) {
            return Outcome.BUDGET;
        }
        return h.haltReason() == Hart.HaltReason.FAULT ? Outcome.FAULT : Outcome.DONE;
    }

    /**
     * One line for a fault: cause, pc, symbol (and address for access faults).
     *
     * @param f the fault
     * @return the line
     */
    String faultLine(final Hart.Fault f) {
        if (f == null) {
            return "no fault";
        }
        final StringBuilder b = new StringBuilder(f.causeName()).append(" at pc 0x").append(Long.toHexString(f.pc()))
            .append(" (").append(image.describe(f.pc())).append(')');
        if (f.cause() == Hart.CAUSE_LOAD_ACCESS || f.cause() == Hart.CAUSE_STORE_ACCESS || f.cause() == Hart.CAUSE_LOAD_MISALIGNED
            || f.cause() == Hart.CAUSE_STORE_MISALIGNED) {
            b.append(", address 0x").append(Long.toHexString(f.tval()));
        }
        return b.toString();
    }

    /**
     * A firmware counter's current value.
     *
     * @param fwId firmware counter id
     * @return the u32 value
     */
    long counter(final int fwId) {
        if (counterValues < 0 || slot < 0) {
            return 0;
        }
        long sum = 0;
        final long rowBytes = (long) FirmwareLayout.MAX_PORTS * FirmwareLayout.MAX_SLOTS * FirmwareLayout.MAX_COUNTERS * 4;
        for (int t = 0; t < FirmwareLayout.MAX_THREADS; t++) {
            sum += u32(counterValues + t * rowBytes + 4L * (slot * FirmwareLayout.MAX_COUNTERS + fwId));
        }
        return sum;
    }

    private long u32(final long address) {
        return memory.load(address, 4) & 0xFFFF_FFFFL;
    }

    /**
     * Stall cycles of a hart by cause, for profiles: the timing classes, then control flow, then
     * instruction fetch (L1I misses, {@link Hart#fetchStallCycles()}).
     *
     * @param h    the hart
     * @param into array of {@code TimingClass.values().length + 2}
     */
    static void stalls(final Hart h, final long[] into) {
        final TimingClass[] cs = TimingClass.values();
        for (int i = 0; i < cs.length; i++) {
            into[i] = h.stallCycles(cs[i]);
        }
        into[cs.length] = h.controlPenaltyCycles();
        into[cs.length + 1] = h.fetchStallCycles();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "FirmwareNic[%s]", image.path());
    }
}
