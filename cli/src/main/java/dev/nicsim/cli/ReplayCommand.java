package dev.nicsim.cli;

import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.traces.CaptureException;
import dev.nicsim.traces.CaptureStats;
import dev.nicsim.traces.PccEventDeriver;
import dev.nicsim.traces.replay.AlgorithmParameters;
import dev.nicsim.traces.replay.ChronicleTraceReader;
import dev.nicsim.traces.replay.ReplayEngine;
import dev.nicsim.traces.replay.ReplayInput;
import dev.nicsim.traces.replay.ReplayProcessor;
import dev.nicsim.traces.replay.TraceException;
import dev.nicsim.traces.replay.TraceHeader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code nicsim replay CAPTURE_OR_TRACE --algorithm NAME [--set param=value]... [--out DIR]
 * [--verify] [--processor emulator|ideal|direct] [--line-rate-gbps G] [--mtu-bytes B]
 * [--base-rtt-ns N] [--burst-gap-ns N] [--lenient] [--reorder-window-ns N] [--mailbox FILE]}: runs the PCC events of a trace or a capture
 * through a CC processor with the algorithm ({@link ReplayEngine}), writes {@code events.csv} and
 * {@code results.csv}, prints a per-QP summary, and with {@code --verify} compares the results
 * with those recorded in the trace.
 *
 * <p>Parameters: when the trace was recorded with the same algorithm, its recorded parameter
 * values are the starting point (so a plain replay reproduces the run); otherwise the algorithm's
 * defaults; {@code --set} changes either. Exit codes: 0, 2 bad input, 3 {@code --verify} found a
 * difference (named on standard error).
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Run the PCC events of a trace or capture through a CC algorithm; write events.csv and results.csv.")
final class ReplayCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CAPTURE_OR_TRACE",
        description = "A trace directory (nicsim run --record, nicsim trace import) or a pcap/pcapng file")
    Path input;

    @Option(names = "--algorithm", paramLabel = "NAME", description = "Algorithm (see nicsim algorithms)")
    String algorithm;

    @Option(names = "--firmware", paramLabel = "ELF",
        description = "Run a DOCA PCC firmware ELF on the emulator's RISC-V cores instead of a Java algorithm")
    Path firmware;

    @Option(names = "--firmware-model", paramLabel = "MODEL",
        description = "With --firmware: machine model of the firmware's cores: bf3-dpa (default), e31, ibex or a model YAML file")
    String firmwareModel;

    @Option(names = "--max-instructions-per-event", paramLabel = "N", defaultValue = "100000",
        description = "Firmware: a handler retiring more instructions is abandoned (default ${DEFAULT-VALUE})")
    long maxInstructionsPerEvent;

    @Option(names = "--set", paramLabel = "param=value", description = "Set an algorithm parameter, e.g. --set g=0.0625")
    List<String> sets = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: out/replay-<input name>)")
    Path out;

    @Option(names = "--verify", description = "Compare the results with those recorded in the trace; exit 3 on the first"
        + " difference")
    boolean verify;

    @Option(names = "--processor", paramLabel = "KIND",
        description = "emulator (uNIC, default config), ideal (uNIC, zero-cost stages) or direct; default: as recorded"
            + " (a simulation trace: its recorded emulator configuration), else emulator")
    String processor;

    @Option(names = "--line-rate-gbps", paramLabel = "G", defaultValue = "100",
        description = "Line rate of flows the input does not start (captures), Gb/s (default ${DEFAULT-VALUE})")
    double lineRateGbps;

    @Option(names = "--mtu-bytes", paramLabel = "B", defaultValue = "1024",
        description = "MTU of such flows, bytes (default ${DEFAULT-VALUE})")
    int mtuBytes;

    @Option(names = "--base-rtt-ns", paramLabel = "N", defaultValue = "8000",
        description = "Base RTT of such flows, ns (default ${DEFAULT-VALUE})")
    int baseRttNs;

    @Option(names = "--burst-gap-ns", paramLabel = "N", defaultValue = "10000",
        description = "Captures: a TX burst ends at a gap of more than N ns (default ${DEFAULT-VALUE})")
    long burstGapNs;

    @Option(names = "--lenient", description = "Captures: skip and count bad packets instead of stopping")
    boolean lenient;

    @Mixin
    ReorderWindowOption reorderWindow = new ReorderWindowOption();

    @Option(names = "--mailbox", paramLabel = "FILE",
        description = "With --firmware: host mailbox messages to deliver at their times (YAML, 'mailbox:' and entries as a"
            + " scenario's firmware.mailbox); replies in mailbox.csv")
    Path mailbox;

    /** Smallest {@code --line-rate-gbps}, as a scenario's {@code rate_gbps}. */
    static final double MIN_LINE_RATE_GBPS = 0.001;
    /** Largest {@code --line-rate-gbps}, as a scenario's {@code rate_gbps}. */
    static final double MAX_LINE_RATE_GBPS = 1600;
    /** Smallest {@code --mtu-bytes}, as a scenario's {@code nic.mtu_bytes}. */
    static final int MIN_MTU_BYTES = 256;
    /** Largest {@code --mtu-bytes}, as a scenario's {@code nic.mtu_bytes}. */
    static final int MAX_MTU_BYTES = 9000;

    /** Creates the command (picocli instantiates it). */
    ReplayCommand() {
    }

    @Override
    public Integer call() throws IOException, CaptureException {
        OutputPaths.nonEmpty("--out", out);
        TraceCommand.checkBurstGap(burstGapNs);
        final ReplayInput kind = ReplayInput.detect(input);
        if (firmwareModel != null && firmware == null) {
            throw new TraceException("--firmware-model: only with --firmware (a Java --algorithm has no machine model)");
        }
        final PccAlgorithmProvider provider = provider(algorithm, firmware, maxInstructionsPerEvent,
            firmwareModel == null ? CycleModel.BF3_DPA : firmwareModel);
        final List<Scenario.MailboxMessage> messages = messages(provider);
        // the same ranges as a scenario's links (rate_gbps) and NICs (mtu_bytes)
        if (!(lineRateGbps >= MIN_LINE_RATE_GBPS && lineRateGbps <= MAX_LINE_RATE_GBPS)) {
            throw new TraceException("--line-rate-gbps: expected a rate in [" + MIN_LINE_RATE_GBPS + ", "
                + MAX_LINE_RATE_GBPS + "] Gb/s (as a scenario's rate_gbps), got " + lineRateGbps);
        }
        if (mtuBytes < MIN_MTU_BYTES || mtuBytes > MAX_MTU_BYTES) {
            throw new TraceException("--mtu-bytes: expected a size in [" + MIN_MTU_BYTES + ", " + MAX_MTU_BYTES
                + "] bytes (as a scenario's nic.mtu_bytes), got " + mtuBytes);
        }
        if (baseRttNs < 0) {
            throw new TraceException("--base-rtt-ns: expected >= 0, got " + baseRttNs);
        }
        reorderWindow.check();
        final Path dir = out != null ? out : Path.of("out", "replay-" + input.toAbsolutePath().normalize().getFileName());
        if (kind == ReplayInput.TRACE && OutputPaths.full(dir).startsWith(OutputPaths.full(input))) {
            throw new OptionException("--out " + dir + ": lies inside the trace directory " + input
                + ", which holds trace files only; give a directory outside it");
        }
        if (kind == ReplayInput.TRACE) {
            try (ChronicleTraceReader reader = ChronicleTraceReader.open(input)) {
                final TraceHeader h = reader.header();
                if (verify && !TraceHeader.ORIGIN_SIMULATION.equals(h.origin)) {
                    throw new TraceException("--verify: " + input + " has no recorded results (origin " + h.origin
                        + "); record a trace with nicsim run SCENARIO --record DIR");
                }
                final PccParameterValues values = provider.defaults();
                if (provider.name().equals(h.algorithm)) {
                    try {
                        AlgorithmParameters.apply(values, h.parameters);
                    } catch (final IllegalArgumentException e) {
                        throw new TraceException(input + ": the recorded parameters do not fit " + provider.name() + ": "
                            + e.getMessage());
                    }
                }
                applySets(values);
                final ReplayProcessor proc = processor != null ? ReplayProcessor.byName(processor)
                    : ReplayProcessor.forTrace(h.processor);
                final ReplayEngine.Settings base = settings(provider, values, proc);
                final EmulatorConfig recorded = ReplayProcessor.recordedConfig(h.processor);
                final ReplayEngine.Settings st = new ReplayEngine.Settings(base.provider(), base.values(), base.processor(),
                    base.lineRateBitsPerSec(), base.mtuBytes(), base.baseRttNs(), base.verify(),
                    recorded != null || firmware == null ? recorded : firmwareConfig());
                if (mailbox != null && reader.mailboxMessages() > 0) {
                    throw new TraceException("--mailbox " + mailbox + ": " + input + " records the run's "
                        + reader.mailboxMessages() + " mailbox deliveries, which the replay makes again; drop --mailbox");
                }
                OutputPaths.setWriting(dir);
                OutputPaths.starting(dir, OutputPaths.REPLAY_FILES, "replay " + input); // the trace was checked whole
                try (ReplayEngine engine = new ReplayEngine(st, dir)) {
                    engine.mailbox(messages);
                    reader.read(engine);
                    engine.finish();
                    return report(engine, dir);
                }
            }
        }
        if (verify) {
            throw new TraceException("--verify: " + input + " is a capture, which has no recorded results; record a trace"
                + " with nicsim run SCENARIO --record DIR");
        }
        final PccParameterValues values = provider.defaults();
        applySets(values);
        final ReplayProcessor proc = processor != null ? ReplayProcessor.byName(processor) : ReplayProcessor.EMULATOR;
        final ReplayEngine.Settings base = settings(provider, values, proc);
        // firmware runs on the DPA-like cores: 1.8 GHz unless a trace recorded its own configuration
        final ReplayEngine.Settings st = firmware == null ? base : new ReplayEngine.Settings(base.provider(), base.values(),
            base.processor(), base.lineRateBitsPerSec(), base.mtuBytes(), base.baseRttNs(), base.verify(), firmwareConfig());
        OutputPaths.setWriting(dir);
        OutputPaths.starting(dir, OutputPaths.REPLAY_FILES, "replay " + input);
        try (ReplayEngine engine = new ReplayEngine(st, dir)) {
            engine.mailbox(messages);
            final PccEventDeriver deriver;
            try {
                deriver = new PccEventDeriver(engine, burstGapNs, PccEventDeriver.DEFAULT_PAIRING_WAIT_NS, true);
            } catch (final IllegalArgumentException e) {
                throw new TraceException("--burst-gap-ns: " + e.getMessage());
            }
            final CaptureStats stats = deriver.derive(reorderWindow.decoder(!lenient), input);
            engine.finish();
            System.out.println(input + ": " + stats.summary());
            return report(engine, dir);
        }
    }

    /**
     * The algorithm of {@code --algorithm NAME} or {@code --firmware ELF} (exactly one).
     *
     * @param algorithm       name or null
     * @param firmware        ELF or null
     * @param maxInstructions firmware budget per event
     * @param model           firmware machine model name or file
     * @return the provider
     * @throws TraceException naming the option when neither or both are given, the name is unknown or the ELF is bad
     */
    static PccAlgorithmProvider provider(final String algorithm, final Path firmware, final long maxInstructions, final String model) {
        if ((algorithm == null) == (firmware == null)) {
            throw new TraceException("give exactly one of --algorithm NAME and --firmware ELF");
        }
        if (firmware != null) {
            if (maxInstructions < 1) {
                throw new TraceException("--max-instructions-per-event: expected at least 1, got " + maxInstructions);
            }
            try {
                return FirmwareProvider.load(firmware, maxInstructions, FirmwareCommand.model(model, "--firmware-model"));
            } catch (final FirmwareException e) {
                throw new TraceException("--firmware: " + e.getMessage());
            }
        }
        try {
            return PccAlgorithms.byName(algorithm);
        } catch (final IllegalArgumentException e) {
            throw new TraceException("--algorithm: " + e.getMessage());
        }
    }

    /**
     * The messages of {@code --mailbox FILE}, checked against the firmware before anything runs.
     *
     * @param provider the algorithm
     * @return the messages in time order; empty without {@code --mailbox}
     * @throws TraceException naming the option when it has no firmware to go to, or the firmware no mailbox callback
     */
    private List<Scenario.MailboxMessage> messages(final PccAlgorithmProvider provider) {
        if (mailbox == null) {
            return List.of();
        }
        OutputPaths.nonEmpty("--mailbox", mailbox);
        if (!(provider instanceof FirmwareProvider fp)) {
            throw new TraceException("--mailbox: messages go to a DOCA PCC firmware's doca_pcc_dev_user_mailbox_handle;"
                + " give --firmware ELF instead of --algorithm");
        }
        if (!fp.image().hasMailboxHandler()) {
            throw new TraceException("--mailbox: " + fp.image().path() + " defines no doca_pcc_dev_user_mailbox_handle, so"
                + " nothing would receive the messages of " + mailbox);
        }
        return ScenarioLoader.mailboxFile(mailbox);
    }

    private ReplayEngine.Settings settings(final PccAlgorithmProvider provider, final PccParameterValues values,
                                           final ReplayProcessor proc) {
        return new ReplayEngine.Settings(provider, values, proc, Math.round(lineRateGbps * 1e9), mtuBytes, baseRttNs, verify);
    }

    private static EmulatorConfig firmwareConfig() {
        return new EmulatorConfig().clockHz(Math.round(FirmwareProvider.DEFAULT_CLOCK_GHZ * 1e9));
    }

    private void applySets(final PccParameterValues values) {
        for (final String s : sets) {
            try {
                AlgorithmParameters.set(values, s);
            } catch (final IllegalArgumentException e) {
                throw new TraceException("--set " + s + ": " + e.getMessage());
            }
        }
    }

    private int report(final ReplayEngine engine, final Path dir) throws IOException {
        OutputPaths.finished(dir);
        engine.printSummary(System.out);
        if (firmware != null) {
            System.out.println(((FirmwareProvider) engine.provider()).summaryLine());
            final String services = ((FirmwareProvider) engine.provider()).services().summaryLine();
            if (services != null) {
                System.out.println(services);
            }
        }
        final boolean mailboxCsv = mailbox != null || engine.recordedMailboxMessages() > 0;
        if (mailboxCsv) {
            System.out.println(engine.mailboxLog().summaryLine());
        }
        if (engine.recordedMailboxMessages() + engine.recordedPortStateChanges() > 0) {
            System.out.println("host calls         " + engine.recordedMailboxMessages() + " mailbox deliveries and "
                + engine.recordedPortStateChanges() + " port-state changes made again as the trace records them");
        }
        if (engine.skippedHostCalls() > 0) {
            System.out.println("host calls         " + engine.skippedHostCalls() + " recorded mailbox deliveries and port-state"
                + " changes not made: they go to firmware, and " + engine.provider().name() + " is a Java algorithm");
        }
        System.out.println("output in " + dir + " (events.csv, results.csv" + (mailboxCsv ? ", mailbox.csv" : "") + ")");
        if (!verify) {
            return 0;
        }
        if (engine.recordedResults() == 0) {
            throw new TraceException("--verify: " + input + " has no recorded results to compare");
        }
        final ReplayEngine.Difference d = engine.firstDifference();
        if (d == null) {
            System.out.printf(Locale.ROOT, "verify: OK, the %d replayed results of %d QPs equal the %d recorded%n",
                engine.results(), engine.qpCount(), engine.recordedResults());
            return 0;
        }
        System.out.flush();
        System.err.println("nicsim: replay differs from the recording: " + d.describe());
        return NicsimCommand.EXIT_VERIFY_FAILED;
    }
}
