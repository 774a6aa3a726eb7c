package dev.nicsim.traces.replay;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The CC processor a replay runs its events through ({@code nicsim replay --processor}); the one
 * place that decides it, so a lead can switch the defaults ({@link #forTrace}) in one line.
 *
 * <ul>
 *   <li>{@link #EMULATOR}: the many-core uNIC emulator ({@link UnicEmulator}) with its default
 *       configuration ({@link EmulatorConfig}: 16 cores x 16 threads at 1 GHz, 256-event rings,
 *       cycle costs per stage), so results carry cycles and take effect when a NIC of that size
 *       could have computed them; events may coalesce or be dropped under load.</li>
 *   <li>{@link #IDEAL}: the same emulator with every stage costing zero cycles
 *       ({@link EmulatorConfig#zeroCost()}): each event completes at its arrival, as the
 *       simulator's direct processor models an ideal NIC; a trace recorded by
 *       {@code nicsim run --record} replays into it exactly.</li>
 *   <li>{@link #DIRECT}: the simulator's {@link DirectCcProcessor} itself.</li>
 * </ul>
 * Each replay source (NIC) gets its own processor, with algorithm slot 0 as in the simulator.
 *
 * <p>Thread-safety: immutable constants.
 */
public enum ReplayProcessor {
    /** uNIC emulator, default configuration. */
    EMULATOR,
    /** uNIC emulator, zero-cost stages (ideal NIC). */
    IDEAL,
    /** The simulator's direct processor. */
    DIRECT;

    /** @return the lower-case name used on the command line and in trace headers */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Makes a processor running one algorithm instance per emulated core (or one instance for
     * {@link #DIRECT}).
     *
     * @param provider the algorithm
     * @param values   its parameter values (read-only from now on)
     * @param sink     receives the results
     * @return a new processor in stepped mode
     */
    public CcProcessor create(final PccAlgorithmProvider provider, final PccParameterValues values,
                              final CcResultSink sink) {
        return create(provider, values, sink, null);
    }

    /**
     * Makes a processor; {@link #EMULATOR} uses the given configuration (the one a trace recorded).
     *
     * @param provider the algorithm
     * @param values   its parameter values
     * @param sink     receives the results
     * @param config   emulator configuration, or null for the default
     * @return a new processor in stepped mode
     */
    public CcProcessor create(final PccAlgorithmProvider provider, final PccParameterValues values,
                              final CcResultSink sink, final EmulatorConfig config) {
        return switch (this) {
            case EMULATOR -> new UnicEmulator(config != null ? config : new EmulatorConfig(), provider.processorInstances(values), 0, sink);
            case IDEAL -> new UnicEmulator(EmulatorConfig.zeroCost(), provider.processorInstances(values), 0, sink);
            case DIRECT -> new DirectCcProcessor(provider.processorInstances(values).get(), 0, sink);
        };
    }

    /**
     * Makes a processor from a NIC's algorithm instances (one per emulated core, or the first for
     * {@link #DIRECT}), so the caller can keep an instance (a firmware's core 0, which takes the host
     * side's mailbox messages).
     *
     * @param instances the NIC's instances, e.g. {@code provider.processorInstances(values)}
     * @param sink      receives the results
     * @param config    emulator configuration, or null for the default
     * @return a new processor in stepped mode
     */
    public CcProcessor create(final Supplier<PccAlgorithm> instances,
                              final CcResultSink sink, final EmulatorConfig config) {
        return switch (this) {
            case EMULATOR -> new UnicEmulator(config != null ? config : new EmulatorConfig(), instances, 0, sink);
            case IDEAL -> new UnicEmulator(EmulatorConfig.zeroCost(), instances, 0, sink);
            case DIRECT -> new DirectCcProcessor(instances.get(), 0, sink);
        };
    }

    /**
     * A processor by its command-line name.
     *
     * @param name {@code emulator}, {@code ideal} or {@code direct}
     * @return the processor kind
     * @throws TraceException naming the option if the name is unknown
     */
    public static ReplayProcessor byName(final String name) {
        for (final ReplayProcessor p : values()) {
            if (p.cliName().equals(name)) {
                return p;
            }
        }
        throw new TraceException("--processor: unknown processor '" + name + "'; known: emulator, ideal, direct");
    }

    /**
     * The default processor for a replay: a trace recorded in a simulation replays into the
     * emulator configured as the processor that recorded it ({@code direct} -&gt; {@link #IDEAL}), so
     * {@code --verify} compares like with like; captures and imported traces (no recorded
     * processor) go through the default {@link #EMULATOR}.
     *
     * @param recordedProcessor the trace header's processor name, or empty/null for none
     * @return the processor kind
     */
    public static ReplayProcessor forTrace(final String recordedProcessor) {
        if (recordedProcessor == null || recordedProcessor.isEmpty()) {
            return EMULATOR;
        }
        return switch (recordedProcessor) {
            case "direct", "ideal" -> IDEAL;
            default -> EMULATOR;
        };
    }

    /** Prefix of a trace header's processor field for a simulation run through the emulator. */
    public static final String EMULATOR_PREFIX = "emulator:";

    /**
     * The processor field a trace header records for an emulator run: {@code emulator:} and the
     * configuration as {@code key=value} pairs.
     *
     * @param c the configuration
     * @return the header text
     */
    public static String describe(final EmulatorConfig c) {
        final StringBuilder b = new StringBuilder(EMULATOR_PREFIX);
        b.append("cores=").append(c.cores()).append(",threads_per_core=").append(c.threadsPerCore())
            .append(",clock_hz=").append(c.clockHz()).append(",ring_capacity=").append(c.ringCapacity())
            .append(",context_cache_entries=").append(c.contextCacheEntries()).append(",dispatch_cycles=")
            .append(c.dispatchCycles()).append(",context_hit_cycles=").append(c.contextHitCycles())
            .append(",context_miss_cycles=").append(c.contextMissCycles()).append(",write_back_cycles=")
            .append(c.writeBackCycles()).append(",coalescing=").append(c.coalescing()).append(",high_water_mark=")
            .append(c.overloadHighWaterMark());
        for (int t = 0; t < PccEventType.COUNT; t++) {
            b.append(",handler_").append(PccEventType.shortName(t)).append('=')
                .append(c.handlerCyclesOverride(t));
        }
        return b.toString();
    }

    /**
     * The emulator configuration recorded in a trace header, if any.
     *
     * @param recordedProcessor the header's processor field
     * @return the configuration, or null if the trace was not recorded through the emulator
     * @throws TraceException if the field is malformed
     */
    public static EmulatorConfig recordedConfig(final String recordedProcessor) {
        if (recordedProcessor == null || !recordedProcessor.startsWith(EMULATOR_PREFIX)) {
            return null;
        }
        final EmulatorConfig c = new EmulatorConfig();
        try {
            for (final String kv : recordedProcessor.substring(EMULATOR_PREFIX.length()).split(",")) {
                final int eq = kv.indexOf('=');
                final String k = kv.substring(0, eq);
                final String v = kv.substring(eq + 1);
                switch (k) {
                    case "cores" -> c.cores(Integer.parseInt(v));
                    case "threads_per_core" -> c.threadsPerCore(Integer.parseInt(v));
                    case "clock_hz" -> c.clockHz(Long.parseLong(v));
                    case "ring_capacity" -> c.ringCapacity(Integer.parseInt(v));
                    case "context_cache_entries" -> c.contextCacheEntries(Integer.parseInt(v));
                    case "dispatch_cycles" -> c.dispatchCycles(Integer.parseInt(v));
                    case "context_hit_cycles" -> c.contextHitCycles(Integer.parseInt(v));
                    case "context_miss_cycles" -> c.contextMissCycles(Integer.parseInt(v));
                    case "write_back_cycles" -> c.writeBackCycles(Integer.parseInt(v));
                    case "coalescing" -> c.coalescing(Boolean.parseBoolean(v));
                    case "high_water_mark" -> c.overloadHighWaterMark(Integer.parseInt(v));
                    default -> {
                        if (!k.startsWith("handler_")) {
                            throw new TraceException("trace header: unknown emulator field '" + k + "'");
                        }
                        final int cycles = Integer.parseInt(v);
                        if (cycles >= 0) {
                            for (int t = 0; t < PccEventType.COUNT; t++) {
                                if (("handler_" + PccEventType.shortName(t)).equals(k)) {
                                    c.handlerCycles(t, cycles);
                                }
                            }
                        }
                    }
                }
            }
            return c.validate();
        } catch (final RuntimeException e) {
            if (e instanceof TraceException te) {
                throw te;
            }
            throw new TraceException("trace header: malformed emulator configuration '" + recordedProcessor + "': " + e.getMessage());
        }
    }
}
