package dev.nicsim.microcode.firmware;

import dev.nicsim.microcode.InterleavedPccAlgorithm;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.riscv.Core;
import dev.nicsim.riscv.Hart;
import dev.nicsim.riscv.MemoryHierarchy;

import java.util.Arrays;

import static dev.nicsim.microcode.firmware.FirmwareLayout.*;

/**
 * A DOCA PCC firmware image as a {@link PccAlgorithm}: one instance per emulated
 * core, sharing its NIC's firmware memory ({@link FirmwareNic}) with the NIC's other cores, with
 * a hart of its own ({@link Hart}, created on first use). Each call writes the event, the flow's
 * attributes and its 48-byte context into the hardware thread's mailbox and context line
 * ({@link FirmwareLayout}, firmware/ABI.md), runs {@code nicsim_pcc_event_entry} on the hart to
 * its completion {@code ecall}, and reads the result and the context back:
 * <ul>
 * <li>{@link #initFlow}: control {@code call} = 1 (the port's {@code nicsim_pcc_user_flow_init},
 *     Java's initFlow; firmware without one leaves the result unchanged);</li>
 * <li>{@link #onEvent}: {@code call} = 0, the runtime calls {@code doca_pcc_dev_user_algo} for every
 *     event, as DOCA's device library does, with {@code attr->algo_slot} = the lowest slot of port 0
 *     the firmware enabled, or {@link FirmwareLayout#INTERNAL_SLOT} (15) when it enabled none (its
 *     code then calls {@code doca_pcc_dev_default_internal_algo}, the runtime's DCQCN);
 *     events of a type the firmware disabled in {@code doca_pcc_dev_user_init} are not run (the
 *     result stays unchanged, 0 cycles).</li>
 * </ul>
 *
 * <p><b>Interleaved mode</b> ({@link InterleavedPccAlgorithm}, on a model with more than one
 * hardware thread per core: {@code bf3-dpa}): {@link #begin} puts an event on one of the 16
 * hardware threads of this instance's {@link Core} and {@link #runUntil} advances the core, one
 * issue per cycle from a ready thread, until a thread retires its completion {@code ecall}; so
 * the events of one core overlap, and each handler's cycles run from its begin to its last
 * instruction, the slots the other threads took included. {@link #onEvent} (a solo hart, run to
 * completion) stays for free-running mode, flow starts and the scripted profile.
 *
 * <p><b>Faults never stop the simulation.</b> A call that traps (illegal instruction, access
 * outside the firmware's memory, misaligned atomic, ebreak) or retires more than the budget of
 * instructions per event is abandoned: the result stays "unchanged" (the flow keeps its last rate
 * and window), the context keeps its value from before the event, and {@code firmware_faults} or
 * {@code firmware_budget_exceeded} counts it; the provider keeps the earliest fault's pc, symbol,
 * cause, NIC and simulated time ({@link FirmwareProvider#firstFault()}). The cycles it ran are charged.
 *
 * <p>Counters ({@link #counters()}): the firmware's declared counters (read from its memory; the
 * NIC's instance 0 reports them, the others 0, so a processor's sum is the NIC's value), then
 * {@code firmware_faults}, {@code firmware_budget_exceeded}, {@code firmware_results_clamped},
 * {@code firmware_instructions}, {@code firmware_cycles} of this core, then
 * {@code firmware_setup_calls_failed}: the DOCA set-up calls of {@code doca_pcc_dev_user_init} that
 * returned {@code DOCA_PCC_DEV_STATUS_FAIL} ({@link FirmwareDeclarations#failedSetupCalls()}; instance 0
 * reports the NIC's, the others 0).
 *
 * <p>Allocation-free per call (the hart is created on the first). Thread-safety: not
 * thread-safe; one thread drives the NIC.
 */
public final class FirmwareAlgorithm implements InterleavedPccAlgorithm {
    private static final int CAUSES = FirmwareCoreThreads.CAUSES;

    private final FirmwareProvider provider;
    private final FirmwareNic nic;
    private final int instance;
    private final long maxInstructions;
    private final PccCounters counters = new PccCounters();
    private final int[] firmwareCounterIds;
    private final int faultsId;
    private final int budgetId;
    private final int clampedId;
    private final int instructionsId;
    private final int cyclesId;
    private Hart hart;
    private int thread;
    /** Hardware thread the last {@link #initFlow} ran on (0..15); -1 before the first. */
    private int lastFlowStartThread = -1;
    private int contextExtra;
    private long lastCycles;
    private long lastContextAccess = -1;
    private final long[] stallsBefore = new long[CAUSES];
    private final long[] stallsAfter = new long[CAUSES];
    private final long[] levelsBefore = new long[MemoryHierarchy.LEVELS];
    private final long[] levelsAfter = new long[MemoryHierarchy.LEVELS];
    /** Interleaved mode: the core and its threads' events. */
    private final FirmwareCoreThreads threads;
    private final boolean interleaves;
    private long lastInstructions;

    FirmwareAlgorithm(final FirmwareProvider provider, final FirmwareNic nic, final int instance) {
        this.provider = provider;
        this.nic = nic;
        this.instance = instance;
        this.maxInstructions = provider.maxInstructionsPerEvent();
        final var names = nic.declarations.counterNames();
        firmwareCounterIds = new int[names.size()];
        for (int i = 0; i < names.size(); i++) {
            firmwareCounterIds[i] = counters.allocate(names.get(i));
        }
        faultsId = counters.allocate("firmware_faults");
        budgetId = counters.allocate("firmware_budget_exceeded");
        clampedId = counters.allocate("firmware_results_clamped");
        instructionsId = counters.allocate("firmware_instructions");
        cyclesId = counters.allocate("firmware_cycles");
        // the NIC's failed set-up calls, once per NIC (its instance 0), like its declared counters
        final int setupFailedId = counters.allocate("firmware_setup_calls_failed");
        if (instance == 0) {
            counters.add(setupFailedId, nic.declarations.failedSetupCalls().size());
        }
        interleaves = nic.model.threadsPerCore() > 1;
        threads = new FirmwareCoreThreads(nic, instance);
    }

    @Override
    public boolean interleaves() {
        return interleaves;
    }

    @Override
    public int contextWords() {
        return PccContext.DEFAULT_WORDS;
    }

    @Override
    public void prepare(final int hardwareThread, final int contextExtraCycles) {
        thread = hardwareThread;
        contextExtra = contextExtraCycles;
    }

    @Override
    public long lastHandlerCycles() {
        return lastCycles;
    }

    @Override
    public long lastContextAccessCycle() {
        return lastContextAccess;
    }

    /** @return 0: the emulator measures this algorithm's handlers instead */
    @Override
    public int handlerCycles(final int eventType) {
        return 0;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Runs on this instance's solo hart with the mailbox, stack and context line of the thread the
     * last {@link #prepare}, {@link #begin} or {@link #finish} named, unless that thread has an event in
     * flight on the interleaving core (interleaved dispatch: begun, not yet finished). Then the flow
     * start runs on the core's lowest-numbered free hardware thread instead, as the DPA only ever gives
     * a handler a thread that runs nothing else: its mailbox, stack, context line and
     * {@code doca_pcc_dev_thread_rank()} are that free thread's. When all 16 threads are busy, it runs on
     * the named thread with that thread's slot and context line saved first and put back afterwards, so
     * the event resumes on its own mailbox, stack and context (the flow start's loads still go through
     * that thread's L1D tags, and its rank is the busy thread's).
     */
    @Override
    public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes, final PccResult result) {
        final int named = thread;
        thread = freeThreadFor(named);
        final byte[] saved = saveSlotIfBusy();
        try {
            flowInit(context, nowNs, attributes, result);
        } finally {
            restoreSlot(saved);
            lastFlowStartThread = thread;
            thread = named;
        }
    }

    /**
     * @param named the thread the last prepare, begin or finish named
     * @return {@code named} when it runs no event (or the core does not interleave), else the lowest
     *         free thread of the core, else {@code named} (all 16 busy)
     */
    private int freeThreadFor(final int named) {
        if (!interleaves || !threads.running(named)) {
            return named;
        }
        for (int t = 0; t < FirmwareCoreThreads.THREADS; t++) {
            if (!threads.running(t)) {
                return t;
            }
        }
        return named;
    }

    /** @return the hardware thread (0..15) the last {@link #initFlow} ran on; -1 before the first */
    int lastFlowStartThread() {
        return lastFlowStartThread;
    }

    private void flowInit(final PccContext context, final int nowNs, final PccAttributes attributes, final PccResult result) {
        portsUp(attributes, nowNs);
        final long m = FirmwareNic.mailbox(rank());
        FirmwareMailbox.writeFlowInit(nic.memory, m, attributes.initialPsn(), nowNs);
        final int saved = contextExtra;
        contextExtra = 0;
        run(m, context, attributes, result, -1);
        contextExtra = saved;
    }

    @Override
    public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes, final PccResult result) {
        final int type = event.type();
        if ((nic.declarations.disableMask() & (1 << DOCA_TYPE[type])) != 0) {
            lastCycles = 0;
            lastContextAccess = -1;
            return;
        }
        portsUp(attributes, event.timestampNs());
        final long m = FirmwareNic.mailbox(rank());
        FirmwareMailbox.writeEvent(nic.memory, m, event);
        nic.contextHome(rank(), event.flowId());
        if (provider.profile() != null) {
            provider.profile().capture(event);
        }
        run(m, context, attributes, result, type);
    }

    /**
     * Before this NIC's first call: writes the port state and, when the ELF defines
     * {@code doca_pcc_dev_user_port_info_changed}, calls it once for port 0 (the one port of the mask),
     * as DOCA does once per initialised port after {@code doca_pcc_dev_user_init} (Addendum A.6).
     */
    private void portsUp(final PccAttributes attributes, final int nowNs) {
        portsUp(attributes.lineRateBitsPerSec(), nowNs);
    }

    private void portsUp(final long lineRateBitsPerSec, final int nowNs) {
        if (nic.portsUp) {
            return;
        }
        nic.writePorts(lineRateBitsPerSec);
        if (nic.image.hasPortInfoHandler()) {
            service(FirmwareLayout.CALL_PORT_INFO, 0, 0, nowNs, FirmwareProvider.TYPE_PORT_INFO);
        }
    }

    /**
     * Hardware thread (of this instance's core) that runs the calls the host side makes between events:
     * host mailbox messages and port-state changes ({@code doca_pcc_dev_thread_rank()} = core x 16 + 15).
     */
    public static final int SERVICE_THREAD = 15;

    /**
     * Switches to {@link #SERVICE_THREAD} for a host-side call. When that thread has an event in flight on
     * the interleaving core, its slot is saved ({@link #saveSlotIfBusy}), to be put back by
     * {@link #endHostCall} once the call's reply is read, so the event resumes unharmed.
     *
     * @return the saved slot, or null when the thread was idle
     */
    private byte[] beginHostCall() {
        thread = SERVICE_THREAD;
        return saveSlotIfBusy();
    }

    private void endHostCall(final byte[] saved, final int previousThread) {
        restoreSlot(saved);
        thread = previousThread;
    }

    /** Bytes of a thread's context line ({@code nic.contextBase + 64 x rank}). */
    private static final int CONTEXT_LINE_BYTES = 64;

    /**
     * Before a solo call (flow start, host mailbox, port state) on the current {@link #thread}: when that
     * thread has an event in flight on the interleaving core, copies its 4 KiB slot (mailbox and stack)
     * and its 64-byte context line, both of which the solo call overwrites. Allocates, but only when the
     * thread is busy, which is off the per-event path.
     *
     * @return the slot's bytes followed by the context line's, or null when the thread is idle
     */
    private byte[] saveSlotIfBusy() {
        if (!interleaves || !threads.running(thread)) {
            return null;
        }
        final int rank = rank();
        final byte[] saved = new byte[(int) THREAD_SLOT_BYTES + CONTEXT_LINE_BYTES];
        System.arraycopy(nic.memory.read(FirmwareNic.mailbox(rank), (int) THREAD_SLOT_BYTES), 0, saved, 0, (int) THREAD_SLOT_BYTES);
        System.arraycopy(nic.memory.read(nic.contextBase + 64L * rank, CONTEXT_LINE_BYTES), 0, saved, (int) THREAD_SLOT_BYTES,
            CONTEXT_LINE_BYTES);
        return saved;
    }

    /** Puts back what {@link #saveSlotIfBusy} saved for the current {@link #thread} (nothing when null). */
    private void restoreSlot(final byte[] saved) {
        if (saved == null) {
            return;
        }
        final int rank = rank();
        nic.memory.write(FirmwareNic.mailbox(rank), Arrays.copyOf(saved, (int) THREAD_SLOT_BYTES));
        nic.memory.write(nic.contextBase + 64L * rank, Arrays.copyOfRange(saved, (int) THREAD_SLOT_BYTES, saved.length));
    }

    /**
     * Port 0's link went down or came back up (a scenario's {@code link_events}): the port state the DOCA
     * queries read changes (speed 0 Gb/s while down; the logical-port mask keeps port 0) and, when the ELF
     * defines {@code doca_pcc_dev_user_port_info_changed}, it is called for port 0 on {@link #SERVICE_THREAD},
     * cycle-counted, faults and budget contained and counted as for events (Addendum A.6). If the start-up
     * port-info call has not been made yet, it is made first, with the state before the change.
     *
     * @param up                 the link's new state
     * @param nowNs              simulated time, ns (what the firmware's timers read)
     * @param lineRateBitsPerSec port speed to use when no NIC is connected and none is known yet, bits/s
     * @return false when the callback faulted or ran out of budget; true otherwise (also when there is none)
     */
    public boolean portStateChanged(final boolean up, final int nowNs, final long lineRateBitsPerSec) {
        final int previous = thread;
        final byte[] saved = beginHostCall();
        try {
            portsUp(lineRateBitsPerSec, nowNs);
            nic.linkUp = up;
            nic.writePorts(0);
            if (!nic.image.hasPortInfoHandler()) {
                return true;
            }
            return service(FirmwareLayout.CALL_PORT_INFO, 0, 0, nowNs, FirmwareProvider.TYPE_PORT_INFO)
                == FirmwareNic.Outcome.DONE;
        } finally {
            endHostCall(saved, previous);
        }
    }

    /** Runs a service call (port info, host mailbox, NP packet) on this instance's hart; faults are counted. */
    private FirmwareNic.Outcome service(final int call, final int arg, final int arg2, final int nowNs, final int faultType) {
        if (hart == null) {
            hart = nic.newHart(instance);
        }
        final long m = FirmwareNic.mailbox(rank());
        nic.select(rank());
        FirmwareMailbox.writeServiceCall(nic.memory, m, call, rank(), nowNs & 0xFFFF_FFFFL, arg, arg2);
        final FirmwareNic.Outcome o = nic.call(hart, nic.image.entryEvent, m, 0, maxInstructions);
        counters.add(instructionsId, nic.lastInstructions);
        counters.add(cyclesId, nic.lastCycles);
        if (o == FirmwareNic.Outcome.FAULT) {
            counters.increment(faultsId);
            provider.recordFault(nic.nowPs(), nic.host(), nic.faultLine(hart.fault()), faultType);
        } else if (o == FirmwareNic.Outcome.BUDGET) {
            counters.increment(budgetId);
            provider.recordBudget(nic.nowPs(), nic.host(), hart.pc(), nic.image.describe(hart.pc()), faultType);
        }
        return o;
    }

    /**
     * What {@code doca_pcc_dev_user_mailbox_handle} answered a host message.
     *
     * @param completed   false when the call faulted or ran out of budget (counted as for events)
     * @param returnValue the callback's return value (0 OK, 1 FAIL); -1 when not completed
     * @param response    the bytes it reported in {@code *response_size} (at most the maximum asked for)
     * @param status      {@link #OK}, {@link #FAULT} or {@link #BUDGET}
     * @param threadRank  the hardware thread it ran on ({@code doca_pcc_dev_thread_rank()})
     * @param instructions instructions the call retired
     * @param cycles      cycles it took on the NIC's cycle model, memory stalls included
     */
    public record HostMailboxReply(boolean completed, int returnValue, byte[] response, String status, int threadRank,
                                   long instructions, long cycles) {
        /** {@link #status()} of a call that returned. */
        public static final String OK = "ok";
        /** {@link #status()} of a call abandoned on a trap. */
        public static final String FAULT = "fault";
        /** {@link #status()} of a call abandoned at the instruction budget. */
        public static final String BUDGET = "budget";
    }

    /**
     * Delivers a host-to-device mailbox message ({@code doca_pcc_mailbox_send}, Addendum A.5): runs
     * {@code doca_pcc_dev_user_mailbox_handle(request, size, maxResponseBytes, response, &size)} on
     * {@link #SERVICE_THREAD} of this instance's core, with {@code *response_size} preset to 0, cycle-counted
     * on the NIC's model; a fault or the instruction budget abandons it and is counted as for events. The
     * start-up port-info call is made first if it has not been (DOCA makes it before any other call).
     *
     * @param request            the message, at most {@link FirmwareLayout#HOST_MAILBOX_BYTES} bytes
     * @param maxResponseBytes   the largest reply accepted, 0..{@link FirmwareLayout#HOST_MAILBOX_BYTES}
     * @param nowNs              simulated time, ns (what the firmware's timers read)
     * @param lineRateBitsPerSec port speed for that start-up call when no NIC is connected and none is known, bits/s
     * @return the reply
     * @throws IllegalArgumentException when a size is out of range
     * @throws IllegalStateException    when the ELF has no mailbox callback (callers reject such
     *                                  messages when loading the scenario)
     */
    public HostMailboxReply hostMailbox(final byte[] request, final int maxResponseBytes, final int nowNs,
                                       final long lineRateBitsPerSec) {
        if (request.length > HOST_MAILBOX_BYTES || maxResponseBytes < 0 || maxResponseBytes > HOST_MAILBOX_BYTES) {
            throw new IllegalArgumentException("host mailbox: request of " + request.length + " bytes, response of "
                + maxResponseBytes + "; each at most " + HOST_MAILBOX_BYTES);
        }
        if (!nic.image.hasMailboxHandler()) {
            throw new IllegalStateException(nic.image.path() + ": no " + MAILBOX_HANDLER);
        }
        final int previous = thread;
        final byte[] saved = beginHostCall();
        try {
            portsUp(lineRateBitsPerSec, nowNs);
            nic.memory.write(nic.image.symbol(HOST_REQUEST), request);
            final FirmwareNic.Outcome o = service(CALL_HOST_MAILBOX, request.length, maxResponseBytes, nowNs,
                FirmwareProvider.TYPE_MAILBOX);
            if (o != FirmwareNic.Outcome.DONE) {
                return new HostMailboxReply(false, -1, new byte[0], o == FirmwareNic.Outcome.FAULT ? HostMailboxReply.FAULT
                    : HostMailboxReply.BUDGET, rank(), nic.lastInstructions, nic.lastCycles);
            }
            final long m = FirmwareNic.mailbox(rank());
            final int size = (int) Math.min(nic.memory.load(m + CT_OUT_SIZE, 4) & 0xFFFF_FFFFL, maxResponseBytes);
            final byte[] response = size == 0 ? new byte[0] : nic.memory.read(nic.image.symbol(HOST_RESPONSE), size);
            return new HostMailboxReply(true, (int) nic.memory.load(m + CT_RETURN, 4), response, HostMailboxReply.OK, rank(),
                nic.lastInstructions, nic.lastCycles);
        } finally {
            endHostCall(saved, previous);
        }
    }

    /** @return this call's global hardware-thread index (core x 16 + thread, 0..255) */
    private int rank() {
        return (instance * 16 + thread) & (MAX_THREADS - 1);
    }

    private void run(final long m, final PccContext context, final PccAttributes attributes, final PccResult result,
                     final int type) {
        if (hart == null) {
            hart = nic.newHart(instance);
        }
        final long ctx = enter(m, context, attributes);
        nic.contextExtraCycles(nic.hierarchy == null ? contextExtra : 0);
        nic.select(rank());
        final FirmwareProfile profile = provider.profile();
        final FirmwareNic.Outcome o;
        if (profile != null && type >= 0) {
            FirmwareNic.stalls(hart, stallsBefore);
            levels(rank(), levelsBefore);
            o = nic.callStepping(hart, nic.image.entryEvent, m, ctx, maxInstructions, profile.sampler());
            FirmwareNic.stalls(hart, stallsAfter);
            levels(rank(), levelsAfter);
        } else {
            o = nic.call(hart, nic.image.entryEvent, m, ctx, maxInstructions);
        }
        lastCycles = nic.lastCycles;
        lastInstructions = nic.lastInstructions;
        lastContextAccess = nic.hierarchy == null ? nic.contextAccessCycle : -1;
        if (profile != null && type >= 0) {
            profile.event(type, nic.lastInstructions, nic.lastCycles, stallsBefore, stallsAfter, levelsBefore, levelsAfter,
                o != FirmwareNic.Outcome.DONE);
        }
        complete(o, hart, m, ctx, context, result, type);
    }

    /** The hierarchy's per-level load latency cycles of a rank so far (zeros without a hierarchy). */
    private void levels(final int rank, final long[] into) {
        final MemoryHierarchy h = nic.hierarchy;
        for (int l = 0; l < MemoryHierarchy.LEVELS; l++) {
            into[l] = h == null ? 0 : h.servedCycles(rank / 16 % 16, rank % 16, l);
        }
    }

    /** Writes the attributes, the result defaults and the context into the thread's mailbox and line. @return the line */
    private long enter(final long m, final PccContext context, final PccAttributes attributes) {
        final int rank = rank();
        final long ctx = nic.contextBase + 64L * rank;
        FirmwareMailbox.writeCall(nic.memory, m, ctx, rank, nic.slot, attributes, context);
        return ctx;
    }

    /** Counts the call, and on success reads the context and the result back. */
    private void complete(final FirmwareNic.Outcome o, final Hart h, final long m, final long ctx, final PccContext context,
                          final PccResult result, final int type) {
        counters.add(instructionsId, lastInstructions);
        counters.add(cyclesId, lastCycles);
        if (o != FirmwareNic.Outcome.DONE) {
            if (o == FirmwareNic.Outcome.FAULT) {
                counters.increment(faultsId);
                provider.recordFault(nic.nowPs(), nic.host(), nic.faultLine(h.fault()), type);
            } else {
                counters.increment(budgetId);
                provider.recordBudget(nic.nowPs(), nic.host(), h.pc(), nic.image.describe(h.pc()), type);
            }
            return; // result unchanged, context as before the event
        }
        final int clamps = FirmwareMailbox.readBack(nic.memory, m, ctx, context, result);
        if (clamps != 0) {
            counters.add(clampedId, clamps);
        }
    }

    // ---------------------------------------------------------------- interleaved mode

    @Override
    public boolean begin(final int thread, final long start, final PccContext context, final PccEvent event,
                         final PccAttributes attributes) {
        final int type = event.type();
        if ((nic.declarations.disableMask() & (1 << DOCA_TYPE[type])) != 0) {
            lastCycles = 0;
            lastContextAccess = -1;
            return false;
        }
        final Hart h = threads.core().thread(thread);
        this.thread = thread;
        final int rank = rank();
        final long m = FirmwareNic.mailbox(rank);
        FirmwareMailbox.writeEvent(nic.memory, m, event);
        nic.contextHome(rank, event.flowId());
        final long ctx = enter(m, context, attributes);
        FirmwareNic.prepareHart(h, nic.image.entryEvent, m, ctx);
        threads.start(thread, start, type, maxInstructions);
        if (provider.profile() != null) {
            provider.profile().capture(event);
            FirmwareNic.stalls(h, threads.stallsAtStart[thread]);
            levels(rank, threads.levelsAtStart[thread]);
        }
        return true;
    }

    @Override
    public int runUntil(final long maxCycle) {
        return threads.runUntil(maxCycle);
    }

    /** @return instructions the interleaving core retired so far (0 before its first event) */
    long coreInstret() {
        return threads.instret();
    }

    @Override
    public long coreCycles() {
        return threads.cycles();
    }

    @Override
    public void idleUntil(final long cycle) {
        threads.core().idleUntil(cycle);
    }

    @Override
    public long lastInstructions() {
        return lastInstructions;
    }

    @Override
    public boolean busy() {
        return threads.busy();
    }

    @Override
    public void finish(final int thread, final PccContext context, final PccResult result) {
        final Hart h = threads.core().thread(thread);
        this.thread = thread;
        final int rank = rank();
        final int type = threads.type(thread);
        final FirmwareNic.Outcome o = threads.end(thread);
        lastCycles = threads.cycles(thread);
        lastInstructions = threads.instructions(thread);
        lastContextAccess = -1;
        final FirmwareProfile profile = provider.profile();
        if (profile != null) {
            FirmwareNic.stalls(h, stallsAfter);
            levels(rank, levelsAfter);
            profile.event(type, lastInstructions, lastCycles, threads.stallsAtStart[thread], stallsAfter,
                threads.levelsAtStart[thread], levelsAfter, o != FirmwareNic.Outcome.DONE);
        }
        final long m = FirmwareNic.mailbox(rank);
        complete(o, h, m, nic.contextBase + 64L * rank, context, result, type);
    }

    @Override
    public PccCounters counters() {
        for (int i = 0; i < firmwareCounterIds.length; i++) {
            final long v = instance == 0 ? nic.counter(nic.declarations.counterIds()[i]) : 0;
            counters.add(firmwareCounterIds[i], v - counters.get(firmwareCounterIds[i]));
        }
        return counters;
    }

    /**
     * A little-endian value of this NIC's firmware memory at a symbol, for tests and tools that read
     * a firmware's own globals.
     *
     * @param symbol      the symbol (a global of the ELF)
     * @param offsetBytes offset from the symbol, 0 or more
     * @param sizeBytes   1, 2, 4 or 8
     * @return the value, zero-extended
     * @throws FirmwareException when the ELF has no such symbol
     */
    public long symbolLoad(final String symbol, final long offsetBytes, final int sizeBytes) {
        final long a = nic.image.symbol(symbol);
        if (a < 0) {
            throw new FirmwareException(nic.image.path() + ": no symbol " + symbol);
        }
        final long v = nic.memory.load(a + offsetBytes, sizeBytes);
        return sizeBytes == 8 ? v : v & ((1L << (8 * sizeBytes)) - 1);
    }

    /** @return the firmware this instance runs */
    public FirmwareProvider provider() {
        return provider;
    }
}
