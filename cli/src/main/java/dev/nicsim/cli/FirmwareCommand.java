package dev.nicsim.cli;

import dev.nicsim.fabric.run.DeviceConfigs;
import dev.nicsim.fabric.run.Runner;
import dev.nicsim.fabric.run.TimeSeriesWriter;
import dev.nicsim.microcode.MeasuredPccAlgorithm;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.firmware.FirmwareDeclarations;
import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.microcode.firmware.FirmwareImage;
import dev.nicsim.microcode.firmware.FirmwareProfile;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.microcode.firmware.FirmwareSaturation;
import dev.nicsim.microcode.firmware.ScriptedFlow;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.MemoryHierarchy;
import dev.nicsim.riscv.TimingClass;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import dev.nicsim.scenario.ScenarioPrograms;
import dev.nicsim.traces.PccEventDeriver;
import dev.nicsim.traces.replay.ChronicleTraceReader;
import dev.nicsim.traces.replay.ReplayEngine;
import dev.nicsim.traces.replay.ReplayInput;
import dev.nicsim.traces.replay.ReplayProcessor;
import dev.nicsim.traces.replay.TraceException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code nicsim firmware info ELF} and {@code nicsim firmware profile ELF [--trace CAPTURE_OR_TRACE
 * [--reorder-window-ns N] | --scenario FILE]}: what a DOCA PCC firmware declares, and what its handlers cost on the
 * emulator's RISC-V cores. Exit codes: 0, 2 bad input (one line).
 */
@Command(name = "firmware", mixinStandardHelpOptions = true,
    description = "Inspect and profile DOCA PCC firmware ELFs.",
    subcommands = {FirmwareCommand.Info.class, FirmwareCommand.Profile.class})
final class FirmwareCommand implements Callable<Integer> {
    /** Per-packet events at nicsim's defaults: one ACK per packet and a TX burst every 8 packets. */
    static final double EVENTS_PER_PACKET = 1 + 1 / 8.0;

    /**
     * Without a subcommand: the usage on standard error and exit 2, as every command group
     * (and {@code riscv}) does.
     *
     * @return {@link NicsimCommand#EXIT_BAD_INPUT}
     */
    @Override
    public Integer call() {
        picocli.CommandLine.usage(this, System.err);
        return NicsimCommand.EXIT_BAD_INPUT;
    }

    static FirmwareProvider load(final Path elf, final long budget) {
        return load(elf, budget, CycleModel.bf3Dpa());
    }

    static FirmwareProvider load(final Path elf, final long budget, final CycleModel model) {
        try {
            return FirmwareProvider.load(elf, budget, model);
        } catch (final FirmwareException e) {
            throw new TraceException(e.getMessage());
        }
    }

    /**
     * Resolves a machine model option.
     *
     * @param spec   bf3-dpa, e31, ibex or a YAML file
     * @param option the option's name, for the message
     * @return the model
     * @throws TraceException one line naming the option when the model is unknown or its file is bad
     */
    static CycleModel model(final String spec, final String option) {
        try {
            return CycleModel.byName(spec);
        } catch (final IllegalArgumentException e) {
            throw new TraceException(option + ": " + e.getMessage() + " (expected bf3-dpa, e31, ibex or a model YAML file)");
        }
    }

    /** {@code firmware info ELF}. */
    @Command(name = "info", mixinStandardHelpOptions = true,
        description = "Declared algorithms, parameters (defaults, ranges) and counters of a firmware ELF.")
    static final class Info implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ELF")
        Path elf;

        @Override
        public Integer call() {
            final FirmwareImage image;
            try {
                image = FirmwareImage.load(elf);
            } catch (final FirmwareException e) {
                throw new TraceException(e.getMessage());
            }
            final PrintStream o = System.out;
            if (!image.hasUserAlgo()) {
                o.printf(Locale.ROOT, "%s: RV%d, notification-point program (no doca_pcc_dev_user_algo)%n", elf, image.elf().xlen());
                handlers(o, image);
                return 0;
            }
            final FirmwareProvider p = load(elf, FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
            final FirmwareDeclarations d = p.declarations();
            o.printf(Locale.ROOT, "%s: RV%d, entry doca_pcc_dev_user_algo at 0x%x%n", elf, p.image().elf().xlen(),
                p.image().elf().symbols().find("doca_pcc_dev_user_algo").address());
            handlers(o, image);
            o.println("algorithms:");
            for (final FirmwareDeclarations.Algorithm a : d.algorithms()) {
                o.printf(Locale.ROOT, "  [%d] id 0x%x v%d.%d \"%s\": %d parameters, %d counters%s%n", a.index(), a.id(), a.major(),
                    a.minor(), a.description(), a.params(), a.counters(), a.index() == d.algoIndex() ? " (port 0 slot 0: runs)" : "");
            }
            if (d.algorithms().isEmpty()) {
                o.println("  none declared");
            }
            o.println("parameters:");
            for (int i = 0; i < d.parameters().size(); i++) {
                final PccParameter q = d.parameters().get(i);
                o.printf(Locale.ROOT, "  %-28s id %-3d default %-12s range [%s, %s] %s - %s%n", q.name(), d.paramIds()[i],
                    num(q.defaultValue()), num(q.min()), num(q.max()), q.unit(), q.description());
            }
            o.println("counters:");
            for (int i = 0; i < d.counterNames().size(); i++) {
                o.printf(Locale.ROOT, "  %-28s id %d%n", d.counterNames().get(i), d.counterIds()[i]);
            }
            final List<String> disabled = new ArrayList<>();
            final String[] doca = {"NULL", "FW", "ROCE_CNP", "ROCE_TX", "ROCE_ACK", "ROCE_NACK", "RTT", "TIMER"};
            for (int b = 0; b < 32; b++) {
                if ((d.disableMask() & (1 << b)) != 0) {
                    disabled.add(b < doca.length ? doca[b] : Integer.toString(b));
                }
            }
            o.println("disabled events: " + (disabled.isEmpty() ? "none" : String.join(", ", disabled)));
            // a set-up call that failed declared nothing, even if the program ignored its return
            final List<String> failed = d.failedSetupCalls();
            o.println("failed set-up calls: " + (failed.isEmpty() ? "none"
                : failed.size() + " (returned DOCA_PCC_DEV_STATUS_FAIL in doca_pcc_dev_user_init; nothing of them is declared)"));
            for (final String f : failed) {
                o.println("  " + f);
            }
            return 0;
        }

        /** The optional DOCA callbacks the ELF defines. */
        private static void handlers(final PrintStream o, final FirmwareImage image) {
            o.printf(Locale.ROOT, "handlers: NP packet %s, host mailbox %s, port info %s%n", yes(image.hasNpHandler()),
                yes(image.hasMailboxHandler()), yes(image.hasPortInfoHandler()));
        }

        private static String yes(final boolean b) {
            return b ? "yes" : "no";
        }
    }

    /** {@code firmware profile ELF [--trace X | --scenario F]}. */
    @Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Per event type instructions, cycles, CPI and stalls, the hottest functions, and the event budget of one NIC.")
    static final class Profile implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ELF")
        Path elf;

        @Option(names = "--trace", paramLabel = "CAPTURE_OR_TRACE", description = "Profile the events of a capture or trace")
        Path trace;

        @Mixin
        ReorderWindowOption reorderWindow = new ReorderWindowOption();

        @Option(names = "--scenario", paramLabel = "FILE", description = "Profile a scenario run with this firmware")
        Path scenario;

        @Option(names = "--events", paramLabel = "N", defaultValue = "20000",
            description = "Without --trace/--scenario: events of the scripted flow (default ${DEFAULT-VALUE})")
        int events;

        @Option(names = "--max-instructions-per-event", paramLabel = "N", defaultValue = "100000")
        long budget;

        @Option(names = "--model", paramLabel = "MODEL", defaultValue = "bf3-dpa",
            description = "Machine model of the cores: bf3-dpa (default), e31, ibex or a model YAML file")
        String modelName;

        @Option(names = "--threads", paramLabel = "N",
            description = "Also saturate one core with N busy hardware threads (1..16) running the same event mix:"
                + " events/s per core, latency, IPC, stalls by cause, line rate of the whole NIC")
        Integer threads;

        @Option(names = "--saturation-events", paramLabel = "N", defaultValue = "20000",
            description = "With --threads: events measured (after a warm-up of 1,000 x threads/16 + 100; default ${DEFAULT-VALUE})")
        int saturationEvents;

        @Override
        public Integer call() throws Exception {
            if (trace != null && scenario != null) {
                throw new TraceException("give at most one of --trace and --scenario");
            }
            reorderWindow.check();
            if (threads != null && (threads < 1 || threads > 16)) {
                throw new TraceException("--threads: expected 1..16 busy threads on one core, got " + threads);
            }
            if (saturationEvents < 1) {
                throw new TraceException("--saturation-events: expected at least 1, got " + saturationEvents);
            }
            final CycleModel model = model(modelName, "--model");
            if (threads != null && model.threadsPerCore() < 2) {
                throw new TraceException("--threads: model " + model.name() + " has one hardware thread per core (use bf3-dpa)");
            }
            FirmwareProvider p = load(elf, budget, model);
            EmulatorConfig config = new EmulatorConfig().clockHz(model.clockHz() > 0 ? model.clockHz()
                : Math.round(FirmwareProvider.DEFAULT_CLOCK_GHZ * 1e9));
            final String source;
            if (scenario != null) {
                final Scenario s = ScenarioLoader.load(scenario, List.of("algorithm.firmware=" + elf.toAbsolutePath(),
                    "algorithm.firmware_model=" + modelName, "nic.emulator.max_instructions_per_event=" + budget), null);
                final ScenarioPrograms programs = ScenarioPrograms.load(s);
                p = (FirmwareProvider) programs.provider();
                p.enableProfile();
                final EmulatorConfig c = DeviceConfigs.emulatorConfig(s.nic().emulator());
                if (c != null) {
                    config = c;
                }
                final Path tmp = Files.createTempDirectory("nicsim-profile");
                try (TimeSeriesWriter series = new TimeSeriesWriter(tmp)) {
                    new Runner(s, programs, series).run(done -> { });
                } finally {
                    deleteTree(tmp);
                }
                source = "scenario " + scenario;
            } else if (trace != null) {
                p.enableProfile();
                final Path tmp = Files.createTempDirectory("nicsim-profile");
                try {
                    replay(p, config, tmp);
                } finally {
                    deleteTree(tmp);
                }
                source = "events of " + trace;
            } else {
                if (events < 1) {
                    throw new TraceException("--events: expected at least 1, got " + events);
                }
                p.enableProfile();
                final PccAlgorithm a = p.create(p.defaults());
                ((MeasuredPccAlgorithm) a).prepare(0, config.contextHitCycles());
                final ScriptedFlow flow = new ScriptedFlow(a);
                for (int i = 0; i < events; i++) {
                    flow.step();
                }
                source = events + " events of the scripted flow (context hits)";
            }
            print(System.out, p, config, source);
            if (threads != null) {
                final FirmwareProfile prof = p.enableProfile();
                if (prof.capturedCount() == 0) {
                    throw new TraceException("--threads: no events were handled to make a mix of");
                }
                final FirmwareSaturation.Figures f = FirmwareSaturation.run(load(elf, budget, model), prof.captured(),
                    prof.capturedCount(), threads, 1000 * threads / 16 + 100, saturationEvents, config.clockHz());
                printSaturation(System.out, f, model, prof.capturedCount());
            }
            return 0;
        }

        private void replay(final FirmwareProvider p, final EmulatorConfig config, final Path tmp) throws Exception {
            final PccParameterValues values = p.defaults();
            final ReplayEngine.Settings st = new ReplayEngine.Settings(p, values, ReplayProcessor.EMULATOR, 100_000_000_000L, 1024,
                8000, false, config);
            try (ReplayEngine engine = new ReplayEngine(st, tmp)) {
                if (ReplayInput.detect(trace) == ReplayInput.TRACE) {
                    try (ChronicleTraceReader reader = ChronicleTraceReader.open(trace)) {
                        reader.read(engine);
                    }
                } else {
                    new PccEventDeriver(engine, 10_000, PccEventDeriver.DEFAULT_PAIRING_WAIT_NS, true)
                        .derive(reorderWindow.decoder(true), trace);
                }
                engine.finish();
            }
        }
    }

    static void print(final PrintStream o, final FirmwareProvider p, final EmulatorConfig config, final String source) {
        final FirmwareProfile prof = p.enableProfile();
        o.printf(Locale.ROOT, "profile of %s: %s; %s model at %.3f GHz%n", p.image().path(), source, p.model().name(),
            config.clockHz() / 1e9);
        o.printf(Locale.ROOT, "%-13s %8s %8s %8s %8s %8s %8s %8s %6s  %s%n", "event", "calls", "instr50", "instr99", "instrMax",
            "cyc50", "cyc99", "cycMax", "CPI", "stall cycles per call by cause");
        long totalCalls = 0;
        double totalCycles = 0;
        final TimingClass[] cs = TimingClass.values();
        for (int t = 0; t < PccEventType.COUNT; t++) {
            final FirmwareProfile.TypeFigures f = prof.figures(t);
            if (f.events() == 0) {
                continue;
            }
            totalCalls += f.events();
            totalCycles += prof.meanCycles(t) * f.events();
            final StringBuilder st = new StringBuilder();
            for (int i = 0; i <= cs.length + 1; i++) {
                final long v = f.stallCycles()[i];
                if (v > 0) {
                    st.append(i < cs.length ? cs[i].name().toLowerCase(Locale.ROOT) : i == cs.length ? "control" : "l1i-miss").append(' ')
                        .append(String.format(Locale.ROOT, "%.1f", v / (double) f.events())).append("  ");
                }
            }
            o.printf(Locale.ROOT, "%-13s %8d %8d %8d %8d %8d %8d %8d %6.2f  %s%s%n", PccEventType.name(t), f.events(),
                f.instructionsP50(), f.instructionsP99(), f.instructionsMax(), f.cyclesP50(), f.cyclesP99(), f.cyclesMax(), f.cpi(),
                st.toString().strip(), f.abandoned() > 0 ? "  (" + f.abandoned() + " abandoned)" : "");
        }
        o.println("hottest functions by cycles:");
        final long all = Math.max(1, prof.totalCycles());
        for (final FirmwareProfile.FunctionFigures f : prof.hottest(10)) {
            o.printf(Locale.ROOT, "  %-36s %12d cycles %5.1f %%  %12d instructions%n", f.name(), f.cycles(), 100.0 * f.cycles() / all,
                f.instructions());
        }
        if (totalCalls == 0) {
            o.println("budget: no events were handled");
            return;
        }
        final double handler = totalCycles / totalCalls;
        final double perEvent = config.dispatchCycles() + handler + config.writeBackCycles();
        final double nicEventsPerSec = config.cores() * (double) config.clockHz() / perEvent;
        o.printf(Locale.ROOT, "budget: %.1f handler cycles per event (mix above) + %d dispatch + %d write-back = %.1f busy cycles;"
            + " one NIC (%d cores at %.3f GHz) sustains %.1f M events/s%n", handler, config.dispatchCycles(), config.writeBackCycles(),
            perEvent, config.cores(), config.clockHz() / 1e9, nicEventsPerSec / 1e6);
        printLineRateTable(o, nicEventsPerSec);
        o.println("(events per packet: one ACK plus a TX burst every 8 packets, nicsim's defaults; packet = payload bytes on the wire)");
    }

    /**
     * The line-rate table: for 100/200/400 Gb/s ports and 1 KB/4 KB packets, the packets/s, the PCC
     * events/s they need ({@link #EVENTS_PER_PACKET} per packet) and the headroom a NIC sustaining
     * {@code nicEventsPerSec} has over them (above 1: it keeps up).
     */
    private static void printLineRateTable(final PrintStream o, final double nicEventsPerSec) {
        o.printf(Locale.ROOT, "%-10s %-8s %14s %16s %10s%n", "port", "packet", "packets/s", "events/s needed", "headroom");
        for (final int gbps : new int[] {100, 200, 400}) {
            for (final int bytes : new int[] {1024, 4096}) {
                final double pps = gbps * 1e9 / (bytes * 8.0);
                final double eps = pps * EVENTS_PER_PACKET;
                o.printf(Locale.ROOT, "%-10s %-8s %13.2fM %15.2fM %9.2fx%n", gbps + " Gb/s", bytes / 1024 + " KB", pps / 1e6, eps / 1e6,
                    nicEventsPerSec / eps);
            }
        }
    }

    /**
     * The saturating run's figures: events/s per core, handler latency, IPC, stall cycles per event
     * by cause, and the line rate a whole NIC (the model's cores, each as this one) sustains.
     */
    static void printSaturation(final PrintStream o, final FirmwareSaturation.Figures f, final CycleModel model, final int mixEvents) {
        final FirmwareProfile prof = f.profile();
        final double ns = 1e9 / f.clockHz();
        o.printf(Locale.ROOT, "saturated core: %d busy hardware threads of %d (%s, %s issue), %d events of a %d-event mix%n",
            f.threads(), model.threadsPerCore(), model.name(), model.issuePolicy().name().toLowerCase(Locale.ROOT).replace('_', '-'),
            f.events(), mixEvents);
        o.printf(Locale.ROOT, "  events/s per core      %.3f M%n", f.eventsPerSec() / 1e6);
        o.printf(Locale.ROOT, "  cycles per event       %.1f (core cycles / events)%n", f.cycles() / (double) Math.max(1, f.events()));
        o.printf(Locale.ROOT, "  handler latency        p50 %.0f ns (%d cycles)   p99 %.0f ns (%d cycles)%n", f.latencyPercentile(50) * ns,
            f.latencyPercentile(50), f.latencyPercentile(99) * ns, f.latencyPercentile(99));
        o.printf(Locale.ROOT, "  core IPC               %.3f (%d instructions in %d cycles)%n", f.ipc(), f.instructions(), f.cycles());
        final TimingClass[] cs = TimingClass.values();
        final double[] level = new double[MemoryHierarchy.LEVELS];
        double slot = 0;
        double div = 0;
        double control = 0;
        double fetch = 0;
        double other = 0;
        long n = 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            final FirmwareProfile.TypeFigures tf = prof.figures(t);
            n += tf.events();
            for (int l = 0; l < level.length; l++) {
                level[l] += prof.levelStallCycles(t, l);
            }
            slot += prof.slotWaitCycles(t);
            for (int i = 0; i < cs.length; i++) {
                final long v = tf.stallCycles()[i];
                if (cs[i] == TimingClass.DIV) {
                    div += v;
                } else if (cs[i] != TimingClass.LOAD && cs[i] != TimingClass.LOAD_SUBWORD && cs[i] != TimingClass.AMO) {
                    other += v;
                }
            }
            control += tf.stallCycles()[cs.length];
            fetch += tf.stallCycles()[cs.length + 1];
        }
        final double per = Math.max(1, n);
        o.printf(Locale.ROOT, "  stall cycles per event L1 %.1f  L2 %.1f  LLC %.1f  DRAM %.1f  issue-slot wait %.1f  divide %.1f  control %.1f"
            + "  L1I miss %.1f  other %.1f%n", level[MemoryHierarchy.L1] / per, level[MemoryHierarchy.L2] / per,
            level[MemoryHierarchy.LLC] / per, level[MemoryHierarchy.DRAM] / per, slot / per, div / per, control / per, fetch / per,
            other / per);
        o.println("  (a load's stall is charged to the level that served it; L1 = waiting for L1 hits' latency;"
            + " L1I miss = fetch waiting for code lines from L2/LLC/DRAM)");
        final double nicEventsPerSec = f.eventsPerSec() * model.cores();
        o.printf(Locale.ROOT, "line rate, whole NIC: %d cores x %.3f M events/s = %.1f M events/s%n", model.cores(), f.eventsPerSec() / 1e6,
            nicEventsPerSec / 1e6);
        printLineRateTable(o, nicEventsPerSec);
    }

    private static String num(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (final Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }
}
