package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.nic.NicConfig;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sw.SwitchConfig;
import dev.nicsim.sw.WredProfile;

import java.util.Arrays;

/**
 * Maps a scenario's sections to the device models' configurations: the NIC's ({@link NicConfig}), the
 * switch's ({@link SwitchConfig}) and the uNIC emulator's ({@link EmulatorConfig}); the fabric builder,
 * {@code nicsim run}'s summary, {@code nicsim firmware} and the ns-3 import share these mappings.
 *
 * <p>Thread-safety: stateless; every call returns a new configuration.
 */
public final class DeviceConfigs {
    private DeviceConfigs() {
    }

    /** Wire bytes of the INT header on HPCC data packets and ACKs (ns-3 IntHeader NORMAL: 5 x 8 + 2). */
    public static final int INT_HEADER_BYTES = 42;

    /**
     * Whether the run needs HPCC's in-band network telemetry: the algorithm is {@code hpcc} (it reads
     * INT hop records from ACK events). Every other run has no INT header, no hop records and no
     * INT room in its packets.
     *
     * @param scenario the scenario
     * @return true for HPCC
     */
    public static boolean usesInt(final Scenario scenario) {
        return "hpcc".equals(scenario.algorithm().name());
    }

    /**
     * Maps the scenario's NIC section to the NIC model's configuration.
     *
     * @param n NIC section
     * @return validated configuration
     */
    public static NicConfig nicConfig(final Scenario.NicSpec n) {
        final NicConfig c = new NicConfig();
        c.mtuBytes = n.mtuBytes();
        c.ackEveryPackets = n.ackEveryPackets();
        c.cnpIntervalNs = n.cnpIntervalNs();
        c.npEnabled = n.npEnabled();
        c.rtoNs = n.rtoNs();
        c.txBurstPackets = n.txBurstPackets();
        c.dataPriority = n.dataPriority();
        c.dataDscp = n.dataDscp();
        c.ackPriority = n.ackPriority();
        c.ackDscp = n.ackDscp();
        c.cnpPriority = n.cnpPriority();
        c.cnpDscp = n.cnpDscp();
        c.lossRecovery = n.selectiveRepeat() ? NicConfig.LOSS_RECOVERY_SELECTIVE_REPEAT : NicConfig.LOSS_RECOVERY_GO_BACK_N;
        c.ackCoalesceBytes = n.ackCoalesceBytes();
        c.srWindowPackets = n.srWindowPackets();
        c.srLossThresholdPackets = n.srLossThresholdPackets();
        c.pathPolicy = n.pathPolicy();
        c.pathEntropies = n.pathEntropies();
        c.validate();
        return c;
    }

    /**
     * Maps the scenario's {@code nic.emulator} section to the emulator's configuration.
     *
     * @param e emulator section
     * @return validated configuration, or null when the emulator is disabled (direct processor)
     */
    public static EmulatorConfig emulatorConfig(final Scenario.Emulator e) {
        if (!e.enabled()) {
            return null;
        }
        final EmulatorConfig c = new EmulatorConfig().cores(e.cores()).threadsPerCore(e.threadsPerCore())
            .clockHz(e.clockHz()).ringCapacity(e.ringCapacity()).contextCacheEntries(e.contextCacheEntries())
            .dispatchCycles(e.dispatchCycles()).contextHitCycles(e.contextHitCycles())
            .contextMissCycles(e.contextMissCycles()).writeBackCycles(e.writeBackCycles()).coalescing(e.coalescing())
            .overloadHighWaterMark(e.highWaterMark());
        for (int t = 0; t < e.handlerCycles().length; t++) {
            if (e.handlerCycles()[t] >= 0) {
                c.handlerCycles(t, e.handlerCycles()[t]);
            }
        }
        c.validate();
        return c;
    }

    /**
     * Maps the scenario's switch section to the switch model's configuration. With any RCM
     * mechanism on, the notification priority is added to the strict-priority set (congestion
     * notifications must overtake the data they report on, the RCM paper §3.2), whatever
     * {@code switch.strict_priorities} says.
     *
     * @param s   switch section
     * @param nic NIC section (DSCP to priority map follows the NIC's markings)
     * @return validated configuration
     * @throws IllegalArgumentException if the switch model rejects the mapped values (the scenario
     *                                  loader checks them first, so only for hand-built sections)
     */
    public static SwitchConfig switchConfig(final Scenario.SwitchSpec s, final Scenario.NicSpec nic) {
        final SwitchConfig c = new SwitchConfig();
        c.bufferBytes = s.bufferBytes();
        c.dscpToPriority[nic.dataDscp()] = nic.dataPriority();
        c.dscpToPriority[nic.ackDscp()] = nic.ackPriority();
        c.dscpToPriority[nic.cnpDscp()] = nic.cnpPriority();
        if (s.pfcEnabled()) {
            for (final int p : s.pfcPriorities()) {
                c.pfcEnabled[p] = true;
            }
        }
        c.pfcThresholdMode = s.pfcDynamic() ? SwitchConfig.ThresholdMode.DYNAMIC : SwitchConfig.ThresholdMode.STATIC;
        c.pfcAlpha = s.pfcAlpha();
        c.pfcXonOffsetBytes = s.xonOffsetBytes();
        Arrays.fill(c.xoffBytes, s.xoffBytes());
        Arrays.fill(c.xonBytes, s.xonBytes());
        Arrays.fill(c.headroomBytes, s.headroomBytes() < 0 ? SwitchConfig.HEADROOM_AUTO : s.headroomBytes());
        c.maxFrameBytes = RoceFraming.frameBytes(nic.mtuBytes(), RoceFraming.RETH_BYTES);
        for (final int p : s.wredPriorities()) {
            c.wredProfiles[p] = new WredProfile(s.kminBytes(), s.kmaxBytes(), s.pmax(), s.ecn(), s.notEctDropBytes());
        }
        c.egressThresholdMode = s.egressDynamic() ? SwitchConfig.ThresholdMode.DYNAMIC : SwitchConfig.ThresholdMode.STATIC;
        c.egressAlpha = s.egressAlpha();
        Arrays.fill(c.queueLimitBytes, s.queueLimitBytes());
        c.strictPriorityMask = 0;
        for (final int p : s.strictPriorities()) {
            c.strictPriorityMask |= 1 << p;
        }
        c.camDepth = s.camDepth();
        c.camSamplePeriod = s.camSamplePackets();
        c.camCongestedBytes = s.camCongestedBytes();
        c.queueing = s.inputOutputQueued() ? SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED : SwitchConfig.Queueing.OUTPUT_QUEUED;
        c.voqBytes = s.voqBytes();
        c.outputQueueBytes = s.outputQueueBytes();
        c.trimmingEnabled = s.uet().trimming();
        c.trimHeaderBytes = s.uet().trimHeaderBytes();
        c.dataQueueLimitBytes = s.uet().queueLimitBytes();
        c.ecnAtDequeue = s.uet().ecnAtDequeue();
        RcmMapping.apply(s.rcm(), c);
        c.validate();
        return c;
    }
}
