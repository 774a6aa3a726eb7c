package dev.nicsim.cli;

import dev.nicsim.fabric.outputs.RunOutputs;
import dev.nicsim.fabric.run.DeviceConfigs;
import dev.nicsim.fabric.run.RunResult;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.trace.PccTraceListener;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.traces.replay.AlgorithmParameters;
import dev.nicsim.traces.replay.ChronicleTraceWriter;
import dev.nicsim.traces.replay.PcapTap;
import dev.nicsim.traces.replay.ReplayProcessor;
import dev.nicsim.traces.replay.TraceException;
import dev.nicsim.traces.replay.TraceHeader;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;

/**
 * {@code nicsim run SCENARIO [--out DIR] [--seed N] [--set path=value]... [--no-progress]
 * [--record TRACE_DIR] [--pcap FILE [--pcap-at host:N|switch:S:port:P]] [--partitions N [--threads T]]}:
 * runs a scenario, shows
 * a progress bar on a terminal, prints the summary and writes the output files. {@code --record}
 * records every PCC event, flow start and end and result (with cycles) of every NIC's CC
 * processor, and the host's calls into firmware (mailbox messages, port-state changes), to a
 * Chronicle Queue trace ({@link ChronicleTraceWriter}); {@code --pcap} writes the
 * frames of one link as pcap ({@link PcapTap}, default {@code host:0}). {@code --partitions N}
 * (N &gt;= 2) runs the fabric as N partitions in parallel ({@link Runner}); it refuses
 * {@code --record} and {@code --pcap} (exit 2).
 *
 * <p>Every check, including those only the built fabric can make, comes before the first write;
 * the run's files are written into a staging directory inside the output directory and moved into
 * place when the run finished ({@link OutputPaths#stage}, {@link OutputPaths#commit}), so refused
 * input and a run that fails part-way both leave an earlier run's files in {@code --out} whole.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Simulate a scenario and write flows.csv, queues.csv, rates.csv, throughput.csv, classes.csv,"
        + " counters.csv and run.json (and throughput.png, queues.png, rates.png and slowdown.png with sampling.charts).")
final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario YAML file, e.g. scenarios/incast-dcqcn.yaml")
    Path scenarioFile;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: out/<scenario name>)")
    Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Seed replacing the scenario's")
    Long seed;

    @Option(names = "--set", paramLabel = "path=value",
        description = "Override a scenario field, e.g. --set workload.load=0.3 --set algorithm.params.g=0.0625")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--no-progress", description = "Do not show the progress bar")
    boolean noProgress;

    @Option(names = "--record", paramLabel = "TRACE_DIR",
        description = "Record every PCC event and result (with cycles), and the host's mailbox messages and port-state"
            + " changes to firmware, of the run to a trace (Chronicle Queue) in TRACE_DIR")
    Path record;

    @Option(names = "--pcap", paramLabel = "FILE", description = "Write the frames of one link (see --pcap-at) to a pcap file")
    Path pcap;

    @Option(names = "--pcap-at", paramLabel = "host:N|switch:S:port:P",
        description = "The link --pcap captures, both directions: host N's link, or the link on port P of switch S"
            + " (index or name) (default " + PcapTap.DEFAULT_POINT + ")")
    String pcapAt;

    @Option(names = "--partitions", paramLabel = "N",
        description = "Split the fabric into N partitions run in parallel (conservative windows; results depend on N,"
            + " not on the threads; default 1: the sequential run)")
    int partitions = 1;

    @Option(names = "--threads", paramLabel = "T",
        description = "Threads for --partitions (1..N, default min(N, available processors)); the results do not depend on it")
    Integer threads;

    @Override
    public Integer call() throws Exception {
        if (partitions < 1) {
            throw new OptionException("--partitions " + partitions + ": expected a whole number of at least 1");
        }
        if (partitions > 1 && record != null) {
            throw new OptionException("--record needs --partitions 1 (got --partitions " + partitions + ")");
        }
        if (partitions > 1 && pcap != null) {
            throw new OptionException("--pcap needs --partitions 1 (got --partitions " + partitions + ")");
        }
        if (threads != null && (threads < 1 || threads > partitions)) {
            throw new OptionException("--threads " + threads + ": expected 1.." + partitions + " (at most --partitions)");
        }
        final int threadCount = threads != null ? threads : Math.min(partitions, Runtime.getRuntime().availableProcessors());
        OutputPaths.nonEmpty("--out", out);
        OutputPaths.nonEmpty("--record", record);
        OutputPaths.nonEmpty("--pcap", pcap);
        final Scenario scenario = ScenarioLoader.load(scenarioFile, overrides, seed);
        if (pcapAt != null && pcap == null) {
            throw new TraceException("--pcap-at " + pcapAt + ": give the pcap file with --pcap FILE");
        }
        final PcapTap.Point point = pcap != null ? PcapTap.parsePoint(pcapAt != null ? pcapAt : PcapTap.DEFAULT_POINT) : null;
        final Path dir = out != null ? out : Path.of("out", scenario.name());
        // every output path is checked before anything is written
        OutputPaths.traceApart("--record", record, dir);
        OutputPaths.fileApart("--pcap", pcap, dir, OutputPaths.RUN_FILES, record);
        if (pcap != null && OutputPaths.full(pcap).equals(OutputPaths.full(scenarioFile))) {
            throw new OptionException("--pcap " + pcap + ": is the scenario file");
        }
        // every check comes before the first write: the fabric is built (which refuses a partition count
        // the topology cannot take, a zero-delay cut link, link rates the algorithm cannot encode, ...) and
        // the capture point resolved against it before the trace, the capture or the output directory is
        // touched, so refused input leaves an earlier run's files in --out as they were
        if (record != null) {
            ChronicleTraceWriter.checkDirectory(record);
        }
        final TimeSeriesWriter series = TimeSeriesWriter.unopened();
        final LateTraceListeners listeners = record == null ? null : new LateTraceListeners();
        final Runner runner = new Runner(scenario, series, listeners, partitions, threadCount);
        if (point != null) {
            PcapTap.check(runner, point);
        }
        warnIfHeapTight(runner.flowCount());
        OutputPaths.setWriting(dir, record, pcap);
        // the output directory first (a path that cannot be one fails here, before the trace or capture is made);
        // the run writes into a staging directory inside it, moved into place only when the run finished, so a
        // run that fails part-way leaves the earlier run's files in --out whole
        Files.createDirectories(dir);
        final RunResult result;
        ChronicleTraceWriter trace = null;
        PcapTap tap = null;
        Path stage = null;
        boolean committed = false;
        try {
            try (series) {
                if (record != null) {
                    trace = ChronicleTraceWriter.create(record, traceHeader(scenario));
                    listeners.trace = trace;
                    runner.recordHostCalls(trace);
                }
                if (point != null) {
                    tap = PcapTap.attach(runner, point, pcap);
                }
                stage = OutputPaths.stage(dir);
                series.open(stage);
                final boolean showBar = !noProgress && System.console() != null;
                if (showBar) {
                    try (ProgressBar bar = new ProgressBarBuilder().setTaskName(scenario.name())
                        .setInitialMax(runner.flowCount()).setUnit(" flows", 1).setStyle(ProgressBarStyle.ASCII)
                        .setUpdateIntervalMillis(200).setConsumer(new ConsoleProgressBarConsumer(System.err)).build()) {
                        result = runner.run(bar::stepTo);
                    }
                } else {
                    result = runner.run(done -> { });
                }
                if (trace != null) {
                    trace.finish(); // only a run that completed leaves a trace that reads as whole
                }
            } finally {
                if (trace != null) {
                    trace.close();
                }
                if (tap != null) {
                    tap.close();
                }
            }
            RunOutputs.write(stage, scenario, runner, result, System.out);
            OutputPaths.commit(stage, dir, OutputPaths.RUN_FILES);
            committed = true;
        } finally {
            if (!committed) {
                OutputPaths.discard(stage);
            }
        }
        System.out.println("output in " + dir);
        if (trace != null) {
            System.out.println("trace: " + trace.events() + " events, " + trace.results() + " results, "
                + trace.flowStarts() + " flow starts, " + trace.flowEnds() + " flow ends"
                + (trace.hostCalls() > 0 ? ", " + trace.hostCalls() + " host calls (mailbox messages, port-state changes)" : "")
                + " recorded to " + record);
        }
        if (tap != null) {
            System.out.println("pcap: " + (tap.roceFrames() + tap.pfcFrames() + tap.ifa2Probes()) + " frames (" + tap.roceFrames()
                + " RoCEv2, " + tap.pfcFrames() + " PFC" + (tap.ifa2Probes() > 0 ? ", " + tap.ifa2Probes() + " IFA2 probes" : "")
                + "; " + tap.skipped() + " RTT probe/RCM frames not written) of " + tap.description()
                + " written to " + pcap);
        }
        return 0;
    }

    /**
     * Before the simulation starts: warns on standard error when the scenario's flows and model
     * already fill three quarters of the heap, so a run that would end in an out-of-memory exit
     * (code 6) says so before spending its time.
     *
     * @param flows the run's flow count, for the message
     */
    private static void warnIfHeapTight(final int flows) {
        final Runtime rt = Runtime.getRuntime();
        final long tight = rt.maxMemory() / 4 * 3;
        if (rt.totalMemory() - rt.freeMemory() < tight) {
            return;
        }
        System.gc(); // only when it looks tight: tell live data from garbage
        final String warning = heapWarning(flows, rt.totalMemory() - rt.freeMemory(), rt.maxMemory());
        if (warning != null) {
            System.err.println(warning);
        }
    }

    /**
     * The warning {@link #warnIfHeapTight} prints: when the live data after building the run
     * (its flows and the model) reach three quarters of the heap, the simulation's own state
     * (queued packets, per-flow records, samples) will not fit.
     *
     * @param flows     the run's flow count, for the message
     * @param usedBytes heap in use after a collection, bytes
     * @param maxBytes  the heap's limit ({@link Runtime#maxMemory()}), bytes
     * @return the one-line warning, or null when the used heap is below three quarters of the limit
     */
    static String heapWarning(final int flows, final long usedBytes, final long maxBytes) {
        if (usedBytes < maxBytes / 4 * 3) {
            return null;
        }
        return "nicsim: warning: the " + flows + " flows and the model already take " + (usedBytes >> 20)
            + " MiB of the " + (maxBytes >> 20) + " MiB heap; the run will likely run out of memory"
            + " (give more with NICSIM_JAVA_OPTS=-Xmx...)";
    }

    /**
     * The trace listeners handed to the {@link Runner} before the trace exists: the runner is built
     * (and so the scenario checked against the fabric) before anything is written, and asks for each
     * host's listener while it builds; each forwards to the trace's listener of its host, made on the
     * first call, once {@link #trace} is set (before the run starts, so every call is recorded).
     */
    private static final class LateTraceListeners implements IntFunction<PccTraceListener> {
        /** The trace, set after the checks and before the run. */
        ChronicleTraceWriter trace;

        @Override
        public PccTraceListener apply(final int host) {
            return new PccTraceListener() {
                private PccTraceListener target;

                private PccTraceListener target() {
                    if (target == null) {
                        target = trace.listener(host);
                    }
                    return target;
                }

                @Override
                public void onFlowStart(final int qpn, final long timePs, final long lineRateBitsPerSec, final int mtuBytes,
                                        final int baseRttNs, final int initialPsn) {
                    target().onFlowStart(qpn, timePs, lineRateBitsPerSec, mtuBytes, baseRttNs, initialPsn);
                }

                @Override
                public void onFlowEnd(final int qpn, final long timePs) {
                    target().onFlowEnd(qpn, timePs);
                }

                @Override
                public void onEvent(final PccEvent event, final long timePs) {
                    target().onEvent(event, timePs);
                }

                @Override
                public void onResult(final int qpn, final PccResult r, final long effectivePs, final long cycles) {
                    target().onResult(qpn, r, effectivePs, cycles);
                }
            };
        }
    }

    /** The header of a recorded trace: scenario, algorithm and parameters, processor, seed. */
    private TraceHeader traceHeader(final Scenario scenario) {
        final TraceHeader h = new TraceHeader();
        h.origin = TraceHeader.ORIGIN_SIMULATION;
        h.input = scenarioFile.toString();
        h.algorithm = scenario.algorithm().name();
        h.parameters = AlgorithmParameters.format(scenario.algorithm().values());
        final EmulatorConfig emulator = DeviceConfigs.emulatorConfig(scenario.nic().emulator());
        // replay rebuilds the same processor from this field, so --verify compares like with like
        h.processor = emulator == null ? "direct" : ReplayProcessor.describe(emulator);
        h.seed = scenario.seed();
        if (!scenario.mailbox().isEmpty() || !scenario.linkEvents().isEmpty()) {
            h.version = TraceHeader.VERSION; // host calls into firmware are recorded (TraceHostCall)
        }
        return h;
    }
}
