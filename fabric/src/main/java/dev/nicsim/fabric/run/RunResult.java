package dev.nicsim.fabric.run;

import java.util.List;

/**
 * What a run produced, for the summary and {@code run.json}.
 *
 * @param scenarioName     scenario name
 * @param seed             seed used
 * @param flows            every flow, completed or not, by flow id
 * @param simulatedPs      simulated time at the end, ps
 * @param wallNanos        wall time of the simulation loop, ns
 * @param events           kernel events handled
 * @param dataPackets      data packets sent by all NICs (including retransmissions)
 * @param switches         per-switch figures, in topology order
 * @param cnpsSent         CNPs sent by all NICs (np_cnp_sent)
 * @param retransmissions  packets retransmitted by all NICs (roce_adp_retrans)
 * @param timeouts         retransmission timeouts (local_ack_timeout_err)
 * @param emulator         figures of the NICs' uNIC emulators, or null when the direct processor ran
 * @param kernelEpochs     the kernel's epochs of 65,536 events ({@code Simulator#epochsCompleted}), 0 if not known
 * @param lookAheadEpochs  of those, the epochs run with the kernel's look-ahead on
 *                         ({@code Simulator#epochsWithLookAhead}); speed only, never results
 * @param partitioning     how a partitioned run ({@code --partitions N}, N >= 2) was split and ran, or null
 *                         for a sequential run
 */
public record RunResult(String scenarioName, long seed, List<FlowRecord> flows, long simulatedPs, long wallNanos,
                        long events, long dataPackets, List<SwitchFigures> switches, long cnpsSent,
                        long retransmissions, long timeouts, EmulatorFigures emulator, long kernelEpochs,
                        long lookAheadEpochs, PartitionFigures partitioning) {

    /**
     * How a partitioned run was split and ran ({@code nicsim run --partitions N}).
     *
     * @param partitions        number of partitions, {@code >= 2}
     * @param threads           threads they ran on (the results do not depend on it)
     * @param hostsPerPartition hosts in each partition
     * @param cutLinks          links between partitions (full-duplex links, each counted once)
     * @param lookAheadPs       the window length L: the least propagation delay over the cut links, ps
     * @param windows           windows run
     */
    public record PartitionFigures(int partitions, int threads, int[] hostsPerPartition, int cutLinks, long lookAheadPs,
                                   long windows) {
    }

    /**
     * The uNIC emulators' figures over all NICs.
     *
     * @param handled             events handled
     * @param coalesced           events merged into a waiting event
     * @param dropped             events dropped at a full ring, by type (tx, ack, nack, cnp, rtt, timer)
     * @param meanUtilisation     busy cycles / (cores x elapsed cycles), averaged over the NICs, 0..1
     * @param maxCoreUtilisation  the busiest core's busy / elapsed cycles, over all NICs, 0..1
     * @param latencyP50Ns        event latency (arrival to result) median, ns
     * @param latencyP99Ns        event latency 99th percentile, ns
     * @param latencyP50Cycles    median latency in core cycles
     * @param latencyP99Cycles    99th percentile latency in core cycles
     */
    public record EmulatorFigures(long handled, long coalesced, long[] dropped, double meanUtilisation,
                                  double maxCoreUtilisation, long latencyP50Ns, long latencyP99Ns, long latencyP50Cycles,
                                  long latencyP99Cycles) {

        /** @return events dropped, all types */
        public long droppedTotal() {
            long d = 0;
            for (final long x : dropped) {
                d += x;
            }
            return d;
        }
    }

    /**
     * Figures of one switch at the end of a run.
     *
     * @param name            switch name
     * @param peakQueueBytes  largest egress queue depth seen, bytes
     * @param ceMarked        packets marked CE
     * @param drops           packets dropped (all causes)
     * @param pauseFramesSent PFC frames sent (xoff and xon)
     * @param trimmedPackets  data packets cut to headers ({@code switch.trimming}), or -1 when the switch does not trim
     */
    public record SwitchFigures(String name, long peakQueueBytes, long ceMarked, long drops, long pauseFramesSent,
                                long trimmedPackets) {
        /**
         * Figures of a switch that does not trim ({@code trimmedPackets} -1).
         *
         * @param name            switch name
         * @param peakQueueBytes  largest egress queue depth seen, bytes
         * @param ceMarked        packets marked CE
         * @param drops           packets dropped (all causes)
         * @param pauseFramesSent PFC frames sent (xoff and xon)
         */
        public SwitchFigures(final String name, final long peakQueueBytes, final long ceMarked, final long drops,
                             final long pauseFramesSent) {
            this(name, peakQueueBytes, ceMarked, drops, pauseFramesSent, -1);
        }
    }

    /** @return number of flows that completed */
    public long completedFlows() {
        return flows.stream().filter(FlowRecord::completed).count();
    }

    /** @return kernel events per wall-clock second */
    public double eventsPerSecond() {
        return wallNanos == 0 ? 0 : events * 1e9 / wallNanos;
    }

    /** @return wall time per simulated data packet, ns */
    public double wallNsPerDataPacket() {
        return dataPackets == 0 ? 0 : wallNanos / (double) dataPackets;
    }
}
