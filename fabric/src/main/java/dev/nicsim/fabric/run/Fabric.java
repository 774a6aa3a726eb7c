package dev.nicsim.fabric.run;

import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.sw.SwitchAsic;

import java.util.SplittableRandom;

/**
 * The devices of one run as {@link FabricBuilder} wired them.
 *
 * @param graph            hosts, switches, links and routes; node {@code n < hosts} is NIC {@code n}, else switch
 *                         {@code n - hosts}
 * @param plan             the partition of the nodes (one partition when the run is sequential)
 * @param partitions       the partitions' simulators and pools, or null for a sequential run
 * @param nics             NIC per host
 * @param switches         switch per switch node, in topology order
 * @param emulators        per host, its uNIC emulator, or null entries when the emulator is disabled
 * @param firmware         per host, the firmware instance of core 0 (host-side calls go there), or null entries
 * @param lastDepth        per switch, port and priority, the queue depth last sampled, bytes
 * @param partitionSamples the partitions' shares of the samples, or null
 * @param psnStreams       per host, the stream first PSNs are drawn from ({@code nic.initial_psn: random}), or null
 */
record Fabric(TopologyGraph graph, PartitionPlan plan, Partitions partitions, RoceNic[] nics, SwitchAsic[] switches,
              UnicEmulator[] emulators, FirmwareAlgorithm[] firmware, long[][][] lastDepth,
              PartitionSamples partitionSamples, SplittableRandom[] psnStreams) {
}
