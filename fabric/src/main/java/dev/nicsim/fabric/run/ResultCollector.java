package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioPrograms;
import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.microcode.firmware.FirmwareNotificationPoint;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.nic.FlowProgress;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.Units;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Simulator;
import dev.nicsim.sw.PortStatistics;
import dev.nicsim.sw.SwitchAsic;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * Assembles the outcome of a finished run from its devices: per-flow records (times in ns), per-switch
 * figures, NIC counter sums, the uNIC emulators' figures (handled, coalesced and dropped events,
 * utilisation, event latency percentiles), the kernel's event and epoch counts, and the account of
 * unfinished flows ({@link StallReport}).
 *
 * <p>Thread-safety: stateless; called on the run's thread after the simulation stopped.
 */
final class ResultCollector {
    private ResultCollector() {
    }

    /**
     * The run's outcome.
     *
     * @param scenario   the scenario that ran
     * @param sim        the run's (global) simulator
     * @param fabric     its devices
     * @param counters   every counter of the run
     * @param flows      the workload's flows, by flow id
     * @param fctPs      per flow, its completion time minus its start time, ps, or -1 when unfinished
     * @param idealPs    per flow, its ideal FCT ({@link IdealFct}), ps
     * @param endPs      the simulated time the run ended at, ps
     * @param wallNanos  wall-clock time of the simulation, ns
     * @param partitionFigures the partitioned run's figures, or null
     * @return the outcome
     */
    static RunResult result(final Scenario scenario, final Simulator sim, final Fabric fabric, final CounterRegistry counters,
                            final List<FlowSpec> flows, final long[] fctPs, final long[] idealPs, final long endPs,
                            final long wallNanos, final RunResult.PartitionFigures partitionFigures) {
        final List<FlowRecord> records = new ArrayList<>(flows.size());
        for (final FlowSpec f : flows) {
            final long fct = fctPs[f.flowId()];
            records.add(new FlowRecord(f.flowId(), f.src(), f.dst(), f.sizeBytes(), f.startPs() / Units.PS_PER_NS,
                fct < 0 ? -1 : fct / Units.PS_PER_NS, Math.max(1, idealPs[f.flowId()] / Units.PS_PER_NS)));
        }
        final List<RunResult.SwitchFigures> sw = new ArrayList<>();
        for (final SwitchAsic s : fabric.switches()) {
            sw.add(new RunResult.SwitchFigures(s.name(), s.peakQueueBytes(), s.totalCeMarked(), s.totalDrops(),
                s.totalPauseFramesSent(), PortStatistics.trimmedPackets(s)));
        }
        long dataPackets = 0;
        for (final RoceNic n : fabric.nics()) {
            dataPackets += n.dataPacketsSent();
        }
        long epochs = sim.epochsCompleted();
        long lookAheadEpochs = sim.epochsWithLookAhead();
        long events = sim.eventsProcessed();
        final Partitions partitions = fabric.partitions();
        if (partitions != null) {
            events += partitions.partitionEvents();
            for (final Simulator s : partitions.sims) {
                epochs += s.epochsCompleted();
                lookAheadEpochs += s.epochsWithLookAhead();
            }
        }
        return new RunResult(scenario.name(), scenario.seed(), records, endPs, wallNanos, events, dataPackets,
            sw, counters.sum("host", "np_cnp_sent"), counters.sum("host", "roce_adp_retrans"),
            counters.sum("host", "local_ack_timeout_err"), emulatorFigures(fabric.emulators()), epochs, lookAheadEpochs,
            partitionFigures);
    }

    /**
     * The account of the flows still unfinished at {@code endPs}.
     *
     * @param scenario  the scenario that ran
     * @param programs  the programs that ran
     * @param fabric    its devices
     * @param flowCount flows in the workload
     * @param completed flows completed
     * @param endPs     the simulated time the run ended at, ps
     * @return the report
     */
    static StallReport stallReport(final Scenario scenario, final ScenarioPrograms programs, final Fabric fabric,
                                   final int flowCount, final int completed,
                                   final long endPs) {
        final List<FlowProgress> unfinished = new ArrayList<>();
        final List<Long> rates = new ArrayList<>();
        for (final RoceNic n : fabric.nics()) {
            for (final FlowProgress f : n.unfinishedFlows()) {
                unfinished.add(f);
                rates.add(n.lineRateBitsPerSec());
            }
        }
        final long[] lineRates = rates.stream().mapToLong(Long::longValue).toArray();
        final FirmwareProvider fw = programs.provider() instanceof FirmwareProvider fp ? fp : null;
        final String algorithm = fw != null
            ? "firmware " + fw.image().path().getFileName() : "algorithm " + programs.provider().name();
        final long fwFaults = fw != null ? fw.faults() : 0;
        final long fwBudget = fw != null ? fw.budgetExceeded() : 0;
        final StallReport.Context c;
        if (programs.np() != null) {
            final FirmwareNotificationPoint np = programs.np();
            c = new StallReport.Context(algorithm, String.valueOf(np.image().path().getFileName()), np.calls(), np.faults(),
                np.budgetExceeded(), np.failed(), fwFaults, fwBudget);
        } else {
            c = new StallReport.Context(algorithm, null, 0, 0, 0, 0, fwFaults, fwBudget);
        }
        final int notStarted = flowCount - completed - unfinished.size();
        return StallReport.of(unfinished, lineRates, notStarted, flowCount, endPs, scenario.stopTimePs(),
            completed < flowCount && endPs < scenario.stopTimePs(), c);
    }

    private static RunResult.EmulatorFigures emulatorFigures(final UnicEmulator[] emulators) {
        long handled = 0;
        long coalesced = 0;
        final long[] dropped = new long[PccEventType.COUNT];
        double utilSum = 0;
        double maxCore = 0;
        int n = 0;
        final Histogram ns = new Histogram(2);
        final Histogram cycles = new Histogram(2);
        for (final UnicEmulator e : emulators) {
            if (e == null) {
                continue;
            }
            n++;
            for (int t = 0; t < PccEventType.COUNT; t++) {
                handled += e.handled(t);
                coalesced += e.coalesced(t);
                dropped[t] += e.dropped(t);
            }
            final long elapsed = Math.max(1, e.elapsedCycles());
            long busy = 0;
            for (int c = 0; c < e.cores(); c++) {
                busy += e.busyCycles(c);
                maxCore = Math.max(maxCore, e.busyCycles(c) / (double) elapsed);
            }
            utilSum += busy / ((double) elapsed * e.cores());
            ns.add(e.latencyNsHistogram());
            cycles.add(e.latencyCyclesHistogram());
        }
        if (n == 0) {
            return null;
        }
        return new RunResult.EmulatorFigures(handled, coalesced, dropped, utilSum / n, maxCore,
            ns.getValueAtPercentile(50), ns.getValueAtPercentile(99), cycles.getValueAtPercentile(50),
            cycles.getValueAtPercentile(99));
    }
}
