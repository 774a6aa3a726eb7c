package dev.nicsim.fabric.trace;

import dev.nicsim.microcode.CcProcessor;
import dev.nicsim.microcode.CcResultSink;
import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameterValues;

import java.util.Locale;

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
        return switch (this) {
            case EMULATOR -> new UnicEmulator(new EmulatorConfig(), () -> provider.create(values), 0, sink);
            case IDEAL -> new UnicEmulator(EmulatorConfig.zeroCost(), () -> provider.create(values), 0, sink);
            case DIRECT -> new DirectCcProcessor(provider.create(values), 0, sink);
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
}
