package dev.nicsim.fabric.run;

import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioPrograms;
import dev.nicsim.scenario.ScenarioException;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.fabric.workload.WorkloadGenerator;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.microcode.trace.RecordingCcProcessor;
import dev.nicsim.nic.FlowListener;
import dev.nicsim.nic.MessageOp;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.PartitionedRun;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.SwitchAsic;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;

/**
 * Builds the fabric of a scenario (NICs, switches, links, ECMP routes, one CC processor per NIC),
 * starts the workload's flows at their times, samples queues and rates, and runs the simulation
 * until every flow has completed or the stop time is reached. The devices come from
 * {@link FabricBuilder}; the host side's mailbox messages and link events are {@link HostActions}; queue
 * and rate samples {@link QueueRateSampler}, throughput {@link ThroughputSampler}; the outcome
 * {@link ResultCollector}. The runner itself is the run loop and the flows' start and completion.
 *
 * <p>Thread-safety: one run per instance, on the calling thread.
 */
public final class Runner implements FlowListener, EventHandler {
    private static final int EV_START_FLOW = 1;
    private static final int EV_MAILBOX = 4;
    private static final int EV_LINK = 5;
    private static final long PROGRESS_STEP_PS = 20_000_000L; // 20 us of simulated time
    /**
     * The system property that makes a partitioned run sample queues, rates and throughput on the
     * coordinator alone ({@code false}; by default the partitions take their shares,
     * {@link PartitionSamples}): the outputs are the same bytes either way.
     */
    public static final String SAMPLE_IN_PARTITIONS_PROPERTY = "nicsim.partition.sampleInPartitions";

    private final Scenario scenario;
    /** The run's simulator; in a partitioned run, the global events' ({@link Fabric#partitions}). */
    private final Simulator sim = new Simulator();
    private final CounterRegistry counters = new CounterRegistry();
    private final Fabric fabric;
    /** The partitions of a partitioned run ({@code --partitions N}, N >= 2), or null. */
    private final Partitions partitions;
    private final RoceNic[] nics;
    private final List<FlowSpec> flows;
    private final long[] fctPs;
    private final long[] idealPs;
    private final int[] baseRttNs;
    private final TimeSeriesWriter series;
    /** The programs this run executes, loaded from the scenario for this run. */
    private final ScenarioPrograms programs;
    private final QueueRateSampler sampler;
    private final HostActions hostActions;
    private final ThroughputSampler throughput;
    /** The per-tier summary ({@code tiers.csv}, {@code hot_ports.csv}). */
    private final TierSummary tiers;
    /** Time of the last flow completion merged, ps (the end of a partitioned run). */
    private long lastCompletionPs;
    private RunResult.PartitionFigures partitionFigures;
    /** Flow ids in the order their flows completed (the first {@code completed} entries). */
    private final int[] completionOrder;
    private int completed;
    /** The account of unfinished flows, after {@link #run}. */
    private StallReport stallReport;

    /**
     * Builds the fabric.
     *
     * @param scenario the scenario
     * @param series   where queue and rate samples go
     */
    public Runner(final Scenario scenario, final TimeSeriesWriter series) {
        this(scenario, series, null);
    }

    /**
     * Builds the sequential fabric running programs loaded by the caller ({@code nicsim firmware
     * profile} enables the provider's profile first).
     *
     * @param scenario the scenario
     * @param programs its programs, {@link ScenarioPrograms#load}ed for this run
     * @param series   where queue and rate samples go
     */
    public Runner(final Scenario scenario, final ScenarioPrograms programs, final TimeSeriesWriter series) {
        this(scenario, programs, series, null, 1, 1);
    }

    /**
     * Builds the fabric, optionally recording every NIC's CC processor: with a listener factory,
     * host {@code h}'s {@link DirectCcProcessor} is wrapped in a {@link RecordingCcProcessor}
     * reporting to {@code traceListeners.apply(h)} (called once per host, in host order), so every
     * flow start and end, PCC event and result (with its cycles) of the run reaches the listener
     * ({@code nicsim run --record}); the run itself is unchanged.
     *
     * @param scenario       the scenario
     * @param series         where queue and rate samples go
     * @param traceListeners the listener of each host's processor, or null to record nothing
     */
    public Runner(final Scenario scenario, final TimeSeriesWriter series,
                  final IntFunction<PccTraceListener> traceListeners) {
        this(scenario, series, traceListeners, 1, 1);
    }

    /**
     * Builds the fabric, split into {@code partitionCount} partitions run in parallel
     * ({@code nicsim run --partitions N}; {@link PartitionPlan}, {@link dev.nicsim.sim.PartitionedRun}).
     * With one partition this is the sequential run, byte-identical to the other constructors'.
     * With more, each partition has its own simulator and packet pool, the links between partitions
     * are cut links, and the runner's own events (flow starts, samplers, mailbox and link events)
     * run on the global simulator at the barriers, after the partitions' events of the same time;
     * the partitions format their own devices' rows of a sample at the window ending at its time
     * ({@link PartitionSamples}, {@link ThroughputSampler#prepare}), the samplers' global events
     * write them out in device order (the same bytes as sampling every device there).
     * The results depend on the partition count, never on {@code threads}. Recording
     * ({@code traceListeners}) and {@link #simulator()} observers need one partition.
     *
     * @param scenario       the scenario
     * @param series         where queue and rate samples go
     * @param traceListeners the listener of each host's processor, or null to record nothing
     * @param partitionCount partitions, {@code >= 1}
     * @param threads        threads to run them on, {@code 1 .. partitionCount}
     * @throws ScenarioException if the fabric cannot be split that way
     *                                  (fewer access switches than partitions, a zero-delay cut link)
     * @throws IllegalArgumentException if {@code threads} is out of range, or recording is asked with
     *                                  more than one partition
     */
    public Runner(final Scenario scenario, final TimeSeriesWriter series,
                  final IntFunction<PccTraceListener> traceListeners, final int partitionCount, final int threads) {
        this(scenario, ScenarioPrograms.load(scenario), series, traceListeners, partitionCount, threads);
    }

    private Runner(final Scenario scenario, final ScenarioPrograms programs, final TimeSeriesWriter series,
                   final IntFunction<PccTraceListener> traceListeners, final int partitionCount, final int threads) {
        if (partitionCount > 1 && traceListeners != null) {
            throw new IllegalArgumentException("recording PCC traces needs --partitions 1");
        }
        if (threads < 1 || threads > Math.max(1, partitionCount)) {
            throw new IllegalArgumentException("threads must be in 1.." + partitionCount + ", got " + threads);
        }
        this.scenario = scenario;
        this.programs = programs;
        this.series = series;
        this.fabric = FabricBuilder.build(scenario, programs, sim, counters, traceListeners, partitionCount, threads);
        this.partitions = fabric.partitions();
        this.nics = fabric.nics();
        final TopologyGraph graph = fabric.graph();
        final int hosts = graph.hosts();
        flows = WorkloadGenerator.generate(scenario.workload(), hosts, scenario.topology().hostLink().rateBitsPerSec(),
            scenario.seed());
        fctPs = new long[flows.size()];
        completionOrder = new int[flows.size()];
        idealPs = new long[flows.size()];
        baseRttNs = new int[flows.size()];
        if (partitions != null) {
            final int[] requester = new int[flows.size()];
            for (final FlowSpec f : flows) {
                requester[f.flowId()] = f.src();
            }
            partitions.expectFlows(flows.size(), f -> requester[f]);
        }
        for (final FlowSpec f : flows) {
            final var path = graph.path(f.src(), f.dst());
            fctPs[f.flowId()] = -1;
            idealPs[f.flowId()] = IdealFct.idealPs(path, f.sizeBytes(), scenario.nic().mtuBytes());
            final long rttNs = IdealFct.baseRttPs(path, scenario.nic().mtuBytes()) / Units.PS_PER_NS;
            if (rttNs > Integer.MAX_VALUE) { // the PCC flow attribute base_rtt_ns is 32 bits
                throw new ScenarioException(scenario.file() + ": topology: flow " + f.flowId()
                    + " (host " + f.src() + " to " + f.dst() + ") has a base RTT of " + rttNs + " ns, more than the "
                    + Integer.MAX_VALUE + " ns a PCC flow attribute holds; shorten the link delays (delay_ns)");
            }
            baseRttNs[f.flowId()] = (int) rttNs;
            sim.schedule(f.startPs(), this, EV_START_FLOW, f.flowId(), null);
        }
        tiers = new TierSummary(graph, fabric.switches(), nics, scenario.topology().type());
        sampler = new QueueRateSampler(sim, series, fabric, scenario.sampling(), () -> completed < flows.size(), tiers);
        sampler.start();
        hostActions = new HostActions(scenario, sim, fabric);
        for (int i = 0; i < scenario.mailbox().size(); i++) {
            sim.schedule(scenario.mailbox().get(i).atPs(), this, EV_MAILBOX, i, null);
        }
        for (int i = 0; i < scenario.linkEvents().size(); i++) {
            sim.schedule(scenario.linkEvents().get(i).atPs(), this, EV_LINK, i, null);
        }
        final List<SwitchAsic> switches = List.of(fabric.switches());
        throughput = partitions == null
            ? new ThroughputSampler(sim, series, flows.size(), scenario.sampling().throughputIntervalPs(), switches)
            : new ThroughputSampler(sim, series, flows.size(), scenario.sampling().throughputIntervalPs(), switches,
                partitionCount, sw -> fabric.plan().partitionOf(hosts + switches.indexOf(sw)));
        if (fabric.partitionSamples() != null) {
            throughput.shareSamplesIn(partitions.sims);
        }
    }

    /**
     * Records the host side's calls into firmware (mailbox messages, port-state changes) in a trace
     * as well as the CC processors' calls ({@code nicsim run --record}), each at its time before the
     * firmware runs it, so a replay makes the same calls. Call before {@link #run}.
     *
     * @param trace the trace, or null to record none
     * @throws IllegalStateException if the run is split into partitions (recording needs one)
     */
    public void recordHostCalls(final HostCallRecorder trace) {
        if (partitions != null && trace != null) {
            throw new IllegalStateException("recording needs --partitions 1");
        }
        hostActions.record(trace);
    }

    private static MessageOp op(final String op) {
        return switch (op) {
            case "send" -> MessageOp.SEND;
            case "read" -> MessageOp.READ;
            default -> MessageOp.WRITE;
        };
    }

    /** The first PSN of a QP that host {@code src} sets up now: fixed, or the next draw of its stream. */
    private int initialPsn(final int src) {
        return fabric.psnStreams() == null ? scenario.nic().initialPsn() : fabric.psnStreams()[src].nextInt(1 << 24);
    }

    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        sampler.devicesChanged();
        switch (kind) {
            case EV_START_FLOW -> {
                final FlowSpec f = flows.get((int) arg);
                final int qpn = f.flowId() + 1;
                nics[f.src()].startFlow(f.flowId(), qpn, nics[f.dst()], qpn, op(scenario.workload().op()), f.sizeBytes(),
                    baseRttNs[f.flowId()], initialPsn(f.src()),
                    partitions == null ? this : partitions.completions[partitions.plan.partitionOf(f.src())]);
            }
            case EV_MAILBOX -> hostActions.deliverMailbox((int) arg);
            case EV_LINK -> hostActions.linkEvent((int) arg);
            default -> throw new IllegalStateException("unknown runner event " + kind);
        }
    }

    @Override
    public void onFlowComplete(final int flowId, final long completionPs) {
        if (fctPs[flowId] < 0) {
            fctPs[flowId] = completionPs - flows.get(flowId).startPs();
            lastCompletionPs = completionPs;
            completionOrder[completed] = flowId;
            completed++;
            if (completed == flows.size()) {
                sim.endAfterNow(); // the run ends at the end of this time, as a partitioned run does
            }
        }
    }

    /**
     * Runs the simulation to completion or the stop time.
     *
     * @param progress called with the number of completed flows every 20 us of simulated time
     * @return the outcome
     * @throws IOException if writing samples fails
     */
    public RunResult run(final LongConsumer progress) throws IOException {
        final long t0 = System.nanoTime();
        final long stop = scenario.stopTimePs();
        final long endPs;
        if (partitions == null) {
            while (completed < flows.size() && sim.nowPs() < stop && sim.pending() > 0) {
                sim.runUntil(Math.min(stop, sim.nowPs() + PROGRESS_STEP_PS));
                progress.accept(completed);
                series.checkError();
            }
            endPs = sim.nowPs();
        } else {
            endPs = runPartitioned(stop, progress);
        }
        final long wall = System.nanoTime() - t0;
        hostActions.finish();
        throughput.finish(endPs);
        for (final RoceNic n : nics) {
            n.publishProcessorCounters();
        }
        stallReport = ResultCollector.stallReport(scenario, programs, fabric, flows.size(), completed, endPs);
        return ResultCollector.result(scenario, sim, fabric, counters, flows, fctPs, idealPs, endPs, wall, partitionFigures);
    }

    /**
     * The lines the run summary ends with when flows did not finish: stalled flows (no byte
     * acknowledged for {@link StallReport#NO_PROGRESS_PS}) with what their congestion control last
     * did, or the unfinished flows still progressing and why the run ended.
     *
     * @return the report; empty lines when every flow completed
     * @throws IllegalStateException before {@link #run}
     */
    public StallReport stallReport() {
        if (stallReport == null) {
            throw new IllegalStateException("the run has not run yet");
        }
        return stallReport;
    }

    /** @return the programs this run executes (the algorithm's provider, the notification-point program) */
    public ScenarioPrograms programs() {
        return programs;
    }

    /**
     * The partitioned run's loop ({@link PartitionedRun}): at every barrier the
     * deferred QP releases and the completions are merged; the run ends at the end of the last
     * completion's time with every partition's events up to that time run and none after
     * ({@link Partitions#expectFlows}, {@link dev.nicsim.sim.PartitionedRun.RunEnd}): the events,
     * and so every counter, of the sequential run.
     *
     * @return the run's end time, ps
     */
    private long runPartitioned(final long stop, final LongConsumer progress) throws IOException {
        final IOException[] writeError = new IOException[1];
        final long[] nextProgressPs = {PROGRESS_STEP_PS};
        final long end;
        final PartitionedRun pr = partitions.start(sim);
        try (pr) {
            end = pr.run(stop, e -> {
                partitions.merge(this);
                if (completed == flows.size()) {
                    return true;
                }
                if (e >= nextProgressPs[0]) {
                    nextProgressPs[0] = e + PROGRESS_STEP_PS;
                    progress.accept(completed);
                    try {
                        series.checkError();
                    } catch (final IOException ex) {
                        writeError[0] = ex;
                        return true;
                    }
                }
                return false;
            });
        }
        if (writeError[0] != null) {
            throw writeError[0];
        }
        progress.accept(completed);
        partitionFigures = new RunResult.PartitionFigures(partitions.plan.partitions(), pr.threads(),
            partitions.plan.hostsPerPartition(), partitions.cutLinkCount(), pr.lookAheadPs(), pr.windows());
        if (completed == flows.size()) {
            return lastCompletionPs;
        }
        return hasEvents() ? stop : end; // stopped at the stop time, or ran out of events
    }

    /** @return whether any partition or the global simulator still has an event */
    private boolean hasEvents() {
        if (sim.pending() > 0 || partitions.framesInFlight() > 0) {
            return true;
        }
        for (final Simulator s : partitions.sims) {
            if (s.pending() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Per-flow delivered payload bytes, as counted for {@code throughput.csv}.
     *
     * @return the run's throughput sampler
     */
    public ThroughputSampler throughput() {
        return throughput;
    }

    /**
     * The scenario's mailbox messages and the firmware's replies ({@code mailbox.csv}); complete after {@link #run}.
     *
     * @return the log (header only when the scenario has no messages)
     */
    public MailboxLog mailboxLog() {
        return hostActions.mailboxLog();
    }

    /**
     * The firmware instance of a host's NIC that takes the host side's calls (core 0), for observers and
     * tests that read a program's globals ({@link FirmwareAlgorithm#symbolLoad}); callers must not call it.
     *
     * @param host host id, {@code 0 .. hostCount()-1}
     * @return the instance, or null when the run has no firmware
     */
    public FirmwareAlgorithm firmware(final int host) {
        return fabric.firmware()[host];
    }

    /** @return every counter of the run (after {@link #run}) */
    public CounterRegistry counters() {
        return counters;
    }

    /**
     * The flows that completed, in completion order (flows completing at the same time in the order
     * the simulator delivered their last ACKs), as the HPCC ns-3 reference writes {@code fct.txt}.
     *
     * @return a new array of flow ids
     */
    public int[] completionOrder() {
        return Arrays.copyOf(completionOrder, completed);
    }

    /**
     * The run summarised per tier of the fabric and its hottest ports; complete after {@link #run}
     * ({@link TierSummary#write} with the run's simulated time).
     *
     * @return the summary
     */
    public TierSummary tiers() {
        return tiers;
    }

    /** @return the fabric's graph (hosts, switches, links, routes) */
    public TopologyGraph graph() {
        return fabric.graph();
    }

    /** @return number of flows in the workload */
    public int flowCount() {
        return flows.size();
    }

    /**
     * The simulator driving this run, for observers (acceptance tests): between construction and
     * {@link #run} an observer may schedule its own events on it to read switch or NIC state over
     * simulated time (e.g. an egress port's {@code txBytes()} every microsecond). An observer must
     * only read state; events that only read do not change the run's outcome, because events at
     * the same time keep their scheduling order. Not for production code paths.
     *
     * @return the run's simulator (time in ps)
     */
    public Simulator simulator() {
        if (partitions != null) {
            throw new IllegalStateException("simulator observers need --partitions 1 (this run has "
                + partitions.plan.partitions() + " partitions)");
        }
        return sim;
    }

    /** @return number of hosts (NICs), host ids {@code 0 .. hostCount()-1} */
    public int hostCount() {
        return nics.length;
    }

    /**
     * A host's NIC, for observers (e.g. a packet capture on its port, {@code nicsim run --pcap});
     * callers must not change its state.
     *
     * @param host host id, {@code 0 .. hostCount()-1}
     * @return the live NIC
     * @throws IllegalArgumentException if the host id is out of range
     */
    public RoceNic nic(final int host) {
        if (host < 0 || host >= nics.length) {
            throw new IllegalArgumentException("host: expected 0.." + (nics.length - 1) + ", got " + host);
        }
        return nics[host];
    }

    /**
     * The workload's flows, by flow id (a flow is one message; its size is the RETH DMA length a
     * packet capture writes on WRITE FIRST/ONLY packets).
     *
     * @return an unmodifiable list, index = flow id
     */
    public List<FlowSpec> flows() {
        return Collections.unmodifiableList(flows);
    }

    /**
     * The fabric's switches in topology order (index {@code s} is switch {@code s} of
     * {@link TopologyGraph}, e.g. {@code sw0} of a star, {@code left}/{@code right} of a dumbbell),
     * for observers that read queue depths, egress-port statistics and per-queue counters.
     *
     * @return an unmodifiable list of the live switch objects; callers must not change their state
     */
    public List<SwitchAsic> switches() {
        return List.of(fabric.switches());
    }
}
