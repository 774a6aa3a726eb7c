package dev.nicsim.scenario;

import dev.nicsim.scenario.Ns3Flows;
import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.microcode.firmware.FirmwareLayout;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.riscv.CycleModel;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/**
 * A validated scenario: everything a run needs, in simulator units (ps, ns, bits/s, Hz, bytes; each
 * component names its unit). Built by {@link ScenarioLoader} from a YAML file; every field's key,
 * file unit, range and default is its {@link ScenarioSchema} row (docs/scenarios.md shows the rows).
 *
 * @param name       scenario name (default: the file name without {@code .yaml})
 * @param file       the file it came from
 * @param seed       seed of every random stream of the run
 * @param stopTimePs simulated time at which the run stops even if flows are unfinished, ps
 * @param topology   hosts, switches and links
 * @param switchSpec buffer, PFC, WRED/ECN, scheduler and CAM of every switch
 * @param nic        NIC transport settings
 * @param algorithm  the congestion-control algorithm and its validated parameters
 * @param workload   the flows to run
 * @param sampling   sampling intervals of the time series
 * @param mailbox    host-to-device mailbox messages to the firmware ({@code firmware.mailbox}), in time order
 *                   (file order among equal times); empty when none
 * @param linkEvents host links taken down and brought up ({@code link_events}), in time order; empty when none
 * @param npFirmware the notification-point program of every NIC ({@code firmware.np}), or null for the
 *                   NICs' hardware RTT responders
 * @param probe      the RTT probe format the reaction points ask for ({@code firmware.probe}); never null
 */
public record Scenario(String name, Path file, long seed, long stopTimePs, Topology topology, SwitchSpec switchSpec,
                       NicSpec nic, Algorithm algorithm, Workload workload, Sampling sampling,
                       List<MailboxMessage> mailbox, List<LinkEvent> linkEvents,
                       NpFirmware npFirmware, Probe probe) {

    /**
     * The probe format of every reaction point's RTT probes ({@code firmware.probe}; DOCA PCC fact sheet
     * Addendum A.7 step 1 and B.1): CCMAD (the default), or IFA2, whose metadata header the switches
     * stamp with per-hop records ({@code doca_pcc_set_ifa2_probe_packet_format},
     * {@code doca_pcc_rp_set_ifa2_gns}, {@code doca_pcc_rp_set_ifa2_hop_limit}).
     *
     * @param ifa2        whether probes are IFA2
     * @param ifa2Gns     the IFA header's GNS, 0..15 (DOCA default 0xF)
     * @param ifa2HopLimit the metadata header's initial Hop Limit, 0..255 (DOCA default 0xFE)
     */
    public record Probe(boolean ifa2, int ifa2Gns, int ifa2HopLimit) {
        /** CCMAD probes (nothing for switches to stamp). */
        public static final Probe CCMAD = new Probe(false, 0xF, 0xFE);
    }

    /**
     * A scenario without mailbox messages and link events, without a notification-point program.
     *
     * @param name       scenario name
     * @param file       the file it came from
     * @param seed       seed of every random stream
     * @param stopTimePs stop time, ps
     * @param topology   hosts, switches and links
     * @param switchSpec switch settings
     * @param nic        NIC settings
     * @param algorithm  the algorithm
     * @param workload   the flows
     * @param sampling   sampling intervals
     */
    public Scenario(final String name, final Path file, final long seed, final long stopTimePs, final Topology topology,
                    final SwitchSpec switchSpec, final NicSpec nic, final Algorithm algorithm, final Workload workload,
                    final Sampling sampling) {
        this(name, file, seed, stopTimePs, topology, switchSpec, nic, algorithm, workload, sampling, List.of(), List.of(),
            null, Probe.CCMAD);
    }

    /** Where a mailbox message goes: {@link MailboxMessage#nic()} of a message to every NIC. */
    public static final int ALL_NICS = -1;

    /**
     * One host-to-device mailbox message ({@code doca_pcc_mailbox_send}, DOCA PCC fact sheet Addendum A.5),
     * delivered to {@code doca_pcc_dev_user_mailbox_handle} of the firmware on one NIC or on all.
     *
     * @param atPs             delivery time, ps
     * @param requestHex       the request bytes in order as lower-case hex, two digits a byte (empty for none);
     *                         at most {@link FirmwareLayout#HOST_MAILBOX_BYTES} bytes
     * @param nic              host id of the target NIC, or {@link #ALL_NICS}
     * @param maxResponseBytes the largest reply the host accepts, 0 .. HOST_MAILBOX_BYTES
     */
    public record MailboxMessage(long atPs, String requestHex, int nic, int maxResponseBytes) {
        /** @return the request bytes (a new array) */
        public byte[] request() {
            return HexFormat.of().parseHex(requestHex);
        }
    }

    /**
     * A host link going down or coming back up at a time: both directions of the link between the
     * host's NIC (port 0) and its switch stop starting frames while it is down, and the firmware's
     * {@code doca_pcc_dev_user_port_info_changed} is called when the state changes.
     *
     * @param atPs time, ps
     * @param host host id
     * @param up   the state from then on
     */
    public record LinkEvent(long atPs, int host, boolean up) {
    }

    /**
     * The notification-point program every NIC runs for the RTT probes it receives ({@code firmware.np},
     * DOCA PCC fact sheet Addendum A.7; docs/doca-pcc.md). The program is loaded where the run is
     * built ({@link ScenarioPrograms#load}): its machine model is {@code algorithm.firmware_model}
     * when the algorithm is firmware, else {@code bf3-dpa}; its budget
     * {@code nic.emulator.max_instructions_per_event}.
     *
     * @param elf        the ELF, resolved (checked to load at scenario load)
     * @param mailboxHex the message the NP host sends each NP process at its start ({@code firmware.np_mailbox}), as
     *                   lower-case hex, or null for none
     */
    public record NpFirmware(Path elf, String mailboxHex) {
    }

    /**
     * One kind of link.
     *
     * @param rateBitsPerSec rate, bits/s
     * @param delayPs        one-way propagation delay, ps
     */
    public record Link(long rateBitsPerSec, long delayPs) {
    }

    /**
     * Topology.
     *
     * @param type         {@code star}, {@code dumbbell}, {@code leaf_spine}, {@code fat_tree} or {@code file}
     * @param hosts        star: number of hosts on the one switch
     * @param hostsPerSide dumbbell: hosts on each of the two switches
     * @param leaves       leaf_spine: leaf switches
     * @param spines       leaf_spine: spine switches
     * @param hostsPerLeaf leaf_spine: hosts per leaf
     * @param k            fat_tree: k (even), k^3/4 hosts
     * @param hostLink     host-to-switch links
     * @param fabricLink   switch-to-switch links
     * @param file         file: the topology file's nodes and links ({@code topology.path}, translated by its
     *                     reader); null for the shapes
     */
    public record Topology(String type, int hosts, int hostsPerSide, int leaves, int spines, int hostsPerLeaf, int k,
                           Link hostLink, Link fabricLink, Graph file) {
        /**
         * A generated shape (no topology file).
         *
         * @param type         {@code star}, {@code dumbbell}, {@code leaf_spine} or {@code fat_tree}
         * @param hosts        star: number of hosts
         * @param hostsPerSide dumbbell: hosts per side
         * @param leaves       leaf_spine: leaves
         * @param spines       leaf_spine: spines
         * @param hostsPerLeaf leaf_spine: hosts per leaf
         * @param k            fat_tree: k
         * @param hostLink     host-to-switch links
         * @param fabricLink   switch-to-switch links
         */
        public Topology(final String type, final int hosts, final int hostsPerSide, final int leaves, final int spines,
                        final int hostsPerLeaf, final int k, final Link hostLink, final Link fabricLink) {
            this(type, hosts, hostsPerSide, leaves, spines, hostsPerLeaf, k, hostLink, fabricLink, null);
        }
    }

    /**
     * A topology given node by node ({@code topology.type: file}), in the form a topology file's
     * reader translates it into: nodes {@code 0 .. nodes()-1}, each a host or a switch (named
     * {@code sw<node>} in the fabric), and the links in file order, each joining the next free port
     * of both ends.
     *
     * @param file       the file it was read from
     * @param hostOfNode per node id, its host id (hosts numbered in ascending node id), or -1 for a switch
     * @param hostNode   per host id, its node id
     * @param links      the links in file order
     */
    public record Graph(Path file, int[] hostOfNode, int[] hostNode, List<GraphLink> links) {
        /**
         * Copies the link list.
         */
        public Graph {
            links = List.copyOf(links);
        }

        /** @return number of nodes (hosts and switches) */
        public int nodes() {
            return hostOfNode.length;
        }

        /** @return number of hosts */
        public int hosts() {
            return hostNode.length;
        }

        /**
         * @param node node id, {@code 0 .. nodes()-1}
         * @return whether it is a switch
         */
        public boolean isSwitch(final int node) {
            return hostOfNode[node] < 0;
        }

        /**
         * @param node node id
         * @return its host id, or -1 for a switch or an id outside the topology
         */
        public int hostOf(final int node) {
            return node >= 0 && node < hostOfNode.length ? hostOfNode[node] : -1;
        }

        /**
         * @param host host id, {@code 0 .. hosts()-1}
         * @return its node id
         */
        public int hostNode(final int host) {
            return hostNode[host];
        }
    }

    /**
     * One link of a {@link Graph}.
     *
     * @param a              node id of one end
     * @param b              node id of the other end
     * @param rateBitsPerSec rate, bits/s
     * @param delayPs        one-way propagation delay, ps
     */
    public record GraphLink(int a, int b, long rateBitsPerSec, long delayPs) {
    }

    /**
     * Switch settings, applied to every switch.
     *
     * @param bufferBytes        shared buffer per switch, bytes
     * @param pfcEnabled         PFC on the lossless priorities
     * @param pfcPriorities      lossless priorities (PFC enabled), 0..7
     * @param pfcDynamic         dynamic (alpha) rather than static xoff threshold
     * @param xoffBytes          static xoff threshold per ingress port and PG, bytes
     * @param xonBytes           static xon threshold per ingress port and PG, bytes
     * @param pfcAlpha           dynamic threshold: xoff = alpha x free shared buffer
     * @param xonOffsetBytes     dynamic threshold: xon = xoff - this, bytes
     * @param headroomBytes      headroom per ingress port and lossless PG, bytes; -1 = sized from the link
     * @param wredPriorities     priorities whose egress queues run the WRED/ECN profile
     * @param kminBytes          WRED Kmin, bytes
     * @param kmaxBytes          WRED Kmax, bytes
     * @param pmax               WRED Pmax, 0..1
     * @param ecn                mark ECT packets (true) or WRED-drop them (false)
     * @param notEctDropBytes    K of the LDCP draft Eq. 3: Not-ECT packets dropped at or above, bytes
     * @param egressDynamic      dynamic (alpha) rather than static egress queue limit (lossy priorities)
     * @param queueLimitBytes    static egress queue limit (buf_max of the LDCP draft §2.1), bytes
     * @param egressAlpha        dynamic egress limit: alpha x free shared buffer
     * @param strictPriorities   priorities served by strict priority (others DWRR)
     * @param camDepth           CAM entries per output queue
     * @param camSamplePackets   CAM samples one packet in this many while the queue is congested
     * @param inputOutputQueued  input-and-output queueing (VOQs + output queues, the RCM paper §4.1) rather than
     *                           the output-queued shared buffer
     * @param voqBytes           input-output queueing: bytes of each virtual output queue
     * @param outputQueueBytes   input-output queueing: bytes of each output queue
     * @param camCongestedBytes  CAM: a queue is congested at or above this depth, bytes; -1 = the WRED Kmin
     * @param rcm                regional congestion mitigation (the RCM paper §3)
     * @param wredByRate         WRED/ECN profiles by egress link rate ({@code switch.wred.by_rate}, as the HPCC ns-3
     *                           simulator's KMIN_MAP/KMAX_MAP/PMAX_MAP): a port whose link rate is listed uses that
     *                           entry's Kmin/Kmax/Pmax instead of {@code kminBytes}/{@code kmaxBytes}/{@code pmax};
     *                           empty for one profile everywhere
     * @param uet                uet-htsim's egress options: trimming, fixed data queue size, ECN at dequeue
     */
    public record SwitchSpec(long bufferBytes, boolean pfcEnabled, int[] pfcPriorities, boolean pfcDynamic,
                             long xoffBytes, long xonBytes, double pfcAlpha, long xonOffsetBytes, long headroomBytes,
                             int[] wredPriorities, long kminBytes, long kmaxBytes, double pmax, boolean ecn,
                             long notEctDropBytes, boolean egressDynamic, long queueLimitBytes, double egressAlpha,
                             int[] strictPriorities, int camDepth, int camSamplePackets, boolean inputOutputQueued,
                             long voqBytes, long outputQueueBytes, long camCongestedBytes, Rcm rcm,
                             List<RateWred> wredByRate, UetEgress uet) {
        /**
         * The settings without uet-htsim's egress options ({@code uet = }{@link UetEgress#OFF}), for builders
         * written before them; each parameter as the record's component of the same name.
         */
        public SwitchSpec(final long bufferBytes, final boolean pfcEnabled, final int[] pfcPriorities, final boolean pfcDynamic,
                          final long xoffBytes, final long xonBytes, final double pfcAlpha, final long xonOffsetBytes,
                          final long headroomBytes, final int[] wredPriorities, final long kminBytes, final long kmaxBytes,
                          final double pmax, final boolean ecn, final long notEctDropBytes, final boolean egressDynamic,
                          final long queueLimitBytes, final double egressAlpha, final int[] strictPriorities, final int camDepth,
                          final int camSamplePackets, final boolean inputOutputQueued, final long voqBytes,
                          final long outputQueueBytes, final long camCongestedBytes, final Rcm rcm,
                          final List<RateWred> wredByRate) {
            this(bufferBytes, pfcEnabled, pfcPriorities, pfcDynamic, xoffBytes, xonBytes, pfcAlpha, xonOffsetBytes, headroomBytes,
                wredPriorities, kminBytes, kmaxBytes, pmax, ecn, notEctDropBytes, egressDynamic, queueLimitBytes, egressAlpha,
                strictPriorities, camDepth, camSamplePackets, inputOutputQueued, voqBytes, outputQueueBytes, camCongestedBytes,
                rcm, wredByRate, UetEgress.OFF);
        }
    }

    /**
     * uet-htsim's switch egress options ({@code switch.trimming}, {@code switch.queue_limit_bytes},
     * {@code switch.ecn}; docs/uet.md "Trimming"), field for field the switch model's
     * {@code SwitchConfig.trimmingEnabled}, {@code trimHeaderBytes}, {@code dataQueueLimitBytes} and
     * {@code ecnAtDequeue}.
     *
     * @param trimming        packet trimming at full lossy data queues
     * @param trimHeaderBytes size of a trimmed header, bytes, 64 .. the largest frame
     * @param queueLimitBytes fixed lossy data queue size, bytes; 0 = the shared-buffer limits
     * @param ecnAtDequeue    ECN decided at dequeue instead of at arrival
     */
    public record UetEgress(boolean trimming, int trimHeaderBytes, long queueLimitBytes, boolean ecnAtDequeue) {
        /** All off: today's switch. */
        public static final UetEgress OFF = new UetEgress(false, 64, 0, false);

        /** @return whether every option is at its default (the scenario writer then writes none of them) */
        public boolean isOff() {
            return equals(OFF);
        }
    }

    /**
     * The WRED/ECN profile of the egress ports of one link rate ({@code switch.wred.by_rate[i]}).
     *
     * @param rateBitsPerSec link rate the entry applies to, bits/s
     * @param kminBytes      Kmin, bytes
     * @param kmaxBytes      Kmax, bytes, at least Kmin
     * @param pmax           Pmax, 0..1
     */
    public record RateWred(long rateBitsPerSec, long kminBytes, long kmaxBytes, double pmax) {
    }

    /**
     * Regional congestion mitigation of every switch ({@code switch.rcm}, the RCM paper §3), field for field
     * the switch model's {@code dev.nicsim.sw.RcmConfig} in simulator units; docs/scenarios.md
     * gives each field's unit, default and reason.
     *
     * @param detection              congestion region detection, CRD (§3.2)
     * @param flowRecognition        congestion flow recognition by the CAM, CFR (§3.3)
     * @param regionalControl        window-based regional congestion control, RCC (§3.4)
     * @param adaptiveRouting        switch-level adaptive routing, SAR (§3.4)
     * @param priorities             data priorities RCM watches, 0..7, never the notification priority
     * @param wq                     {@code w_q} of Eq. (1), {@code >= 0}
     * @param qEqBytes               {@code Q_eq} of Eq. (1), bytes, {@code > 0}
     * @param fbBits                 bits of the quantised {@code F_b}, 1..16
     * @param w                      {@code w} of Eq. (2), in [0, 1]
     * @param gd                     {@code G_d} of Eq. (4) per quantised unit; 0 = {@code 1 / (2 F_bmax)}
     * @param sampleBytes            congestion-point sampling interval when not congested, bytes
     * @param notificationPriority   priority of congestion notifications, 0..7 (served by strict priority)
     * @param notificationLifetimePs how long a received notification stays valid, ps
     * @param windowPeriodPs         RCC window period {@code T}, ps
     * @param compoundWindowDecrease Eq. (5) compounding at every congestion event
     * @param harmfulMinEntries      CAM entries a flow needs to count as harmful at a root point
     * @param latchHarmfulSet        CFR with RCC: freeze an output queue's harmful set while its RCC controls
     * @param detourTableEntries     SAR detour table entries, a power of two
     * @param detourIdlePs           SAR: a detoured flow keeps its port while its packets are closer than this, ps
     */
    public record Rcm(boolean detection, boolean flowRecognition, boolean regionalControl, boolean adaptiveRouting,
                      int[] priorities, double wq, long qEqBytes, int fbBits, double w, double gd, long sampleBytes,
                      int notificationPriority, long notificationLifetimePs, long windowPeriodPs,
                      boolean compoundWindowDecrease, int harmfulMinEntries, boolean latchHarmfulSet, int detourTableEntries,
                      long detourIdlePs) {
        /** @return whether any of the four mechanisms is on */
        public boolean anyEnabled() {
            return detection || flowRecognition || regionalControl || adaptiveRouting;
        }
    }

    /**
     * NIC settings, applied to every NIC.
     *
     * @param mtuBytes        payload bytes per data packet
     * @param ackEveryPackets 1 = per-packet ACK; m = delayed ACK of up to m packets (the DCTCP draft §3.2)
     * @param cnpIntervalNs   NP: at most one CNP per QP per interval; 0 = every CE-marked packet
     * @param npEnabled       notification point on
     * @param rtoNs           retransmission (local ACK) timeout, ns
     * @param txBurstPackets  packets per TX_BURST PCC event
     * @param dataPriority    priority (PCP) of data and ACKs, 0..7
     * @param dataDscp        DSCP of data and ACKs
     * @param cnpPriority     priority of CNPs
     * @param cnpDscp         DSCP of CNPs
     * @param initialPsn      first PSN of every QP's send queue, 0..2^24 - 1, or {@link #RANDOM_PSN}
     *                        (drawn per QP, as real NICs do; IBTA vol. 1 §9.7.1)
     * @param emulator        the uNIC CC processor every PCC event goes through
     * @param ackPriority     priority (PCP) of ACKs and NAKs, 0..7 (default the data priority)
     * @param ackDscp         DSCP of ACKs and NAKs (default the data DSCP)
     * @param selectiveRepeat loss recovery: selective repeat (true) or go-back-N (false, default)
     * @param ackCoalesceBytes ACK every this many accepted frame bytes (UET); 0 = {@code ackEveryPackets}
     * @param srWindowPackets selective repeat: the receiver's and sender's window, packets (power of two)
     * @param srLossThresholdPackets selective repeat: SACKed packets above one that make it lost; 0 = never
     * @param pathPolicy      {@code nic.path.policy}: {@code NicConfig.PATH_ECMP} .. {@code NicConfig.PATH_MIXED}
     * @param pathEntropies   {@code nic.path.entropies}: EVs per flow, a power of two in 1..16384
     */
    public record NicSpec(int mtuBytes, int ackEveryPackets, long cnpIntervalNs, boolean npEnabled, long rtoNs,
                          int txBurstPackets, int dataPriority, int dataDscp, int cnpPriority, int cnpDscp,
                          int initialPsn, Emulator emulator, int ackPriority, int ackDscp, boolean selectiveRepeat,
                          int ackCoalesceBytes, int srWindowPackets, int srLossThresholdPackets, int pathPolicy,
                          int pathEntropies) {
        /** {@link #initialPsn} value meaning: drawn per QP from the requester NIC's seeded stream. */
        public static final int RANDOM_PSN = -1;

        /**
         * NIC settings with go-back-N and per-{@code ackEveryPackets} ACKs (the loss-recovery fields at their defaults).
         *
         * @param mtuBytes        payload bytes per data packet
         * @param ackEveryPackets 1 = per-packet ACK; m = delayed ACK of up to m packets
         * @param cnpIntervalNs   NP: at most one CNP per QP per interval; 0 = every CE-marked packet
         * @param npEnabled       notification point on
         * @param rtoNs           retransmission (local ACK) timeout, ns
         * @param txBurstPackets  packets per TX_BURST PCC event
         * @param dataPriority    priority (PCP) of data
         * @param dataDscp        DSCP of data
         * @param cnpPriority     priority of CNPs
         * @param cnpDscp         DSCP of CNPs
         * @param initialPsn      first PSN, or {@link #RANDOM_PSN}
         * @param emulator        the uNIC CC processor
         * @param ackPriority     priority of ACKs and NAKs
         * @param ackDscp         DSCP of ACKs and NAKs
         */
        public NicSpec(final int mtuBytes, final int ackEveryPackets, final long cnpIntervalNs, final boolean npEnabled,
                       final long rtoNs, final int txBurstPackets, final int dataPriority, final int dataDscp,
                       final int cnpPriority, final int cnpDscp, final int initialPsn, final Emulator emulator,
                       final int ackPriority, final int ackDscp) {
            this(mtuBytes, ackEveryPackets, cnpIntervalNs, npEnabled, rtoNs, txBurstPackets, dataPriority, dataDscp,
                cnpPriority, cnpDscp, initialPsn, emulator, ackPriority, ackDscp, false, 0,
                dev.nicsim.nic.NicConfig.DEFAULT_SR_WINDOW_PACKETS, dev.nicsim.nic.NicConfig.DEFAULT_SR_LOSS_THRESHOLD_PACKETS,
                dev.nicsim.nic.NicConfig.PATH_ECMP, dev.nicsim.nic.NicConfig.DEFAULT_PATH_ENTROPIES);
        }
    }

    /**
     * The NIC's congestion-control processor: the many-core uNIC emulator (see
     * {@code dev.nicsim.microcode.emulator.EmulatorConfig} for the timing model), or, when disabled,
     * the ideal direct processor that runs each event at once.
     *
     * @param enabled             run PCC events through the emulator (else the direct processor)
     * @param cores               CC processor cores
     * @param threadsPerCore      hardware threads per core
     * @param clockHz             core clock, Hz
     * @param ringCapacity        events a core's ring (plus waiting table) holds before dropping
     * @param contextCacheEntries flow contexts a core's LRU context cache holds
     * @param dispatchCycles      cycles to dispatch an event
     * @param contextHitCycles    cycles to fetch a cached context
     * @param contextMissCycles   cycles a context miss waits (the core is free meanwhile)
     * @param writeBackCycles     cycles to write the result back
     * @param coalescing          merge an event into a waiting one of the same flow and type
     * @param highWaterMark       waiting events above which the algorithm sees the overload flag; -1 = 3/4 of the ring
     * @param handlerCycles       per event type (tx, ack, nack, cnp, rtt, timer) handler cycles; -1 = the algorithm's estimate
     * @param maxInstructionsPerEvent firmware: instructions a handler may retire per event before it is abandoned
     *                            ({@code firmware_budget_exceeded}); unused by Java algorithms
     */
    public record Emulator(boolean enabled, int cores, int threadsPerCore, long clockHz, int ringCapacity,
                           int contextCacheEntries, int dispatchCycles, int contextHitCycles, int contextMissCycles,
                           int writeBackCycles, boolean coalescing, int highWaterMark, int[] handlerCycles,
                           long maxInstructionsPerEvent) {
    }

    /**
     * The algorithm: a Java algorithm by name, or a DOCA PCC firmware ELF on a RISC-V machine model.
     * The provider is loaded where the run is built ({@link ScenarioPrograms#load}); the scenario
     * loader loads it once to validate the parameters and reports a bad ELF there.
     *
     * @param name          the algorithm's name ({@code PccAlgorithmProvider.name()}; for firmware, the image's)
     * @param values        its validated parameter values
     * @param firmware      the firmware ELF ({@code algorithm.firmware}, resolved), or null for a Java algorithm
     * @param firmwareModel the firmware's machine model ({@code algorithm.firmware_model}), or null for a Java algorithm
     */
    public record Algorithm(String name, PccParameterValues values, Path firmware, CycleModel firmwareModel) {
    }

    /**
     * The workload.
     *
     * @param type             {@code incast}, {@code permutation}, {@code poisson}, {@code hotspot}, {@code flows} or
     *                         {@code file}
     * @param op               RDMA operation of every flow: {@code write}, {@code send} or {@code read}
     * @param senders          incast: number of senders
     * @param receiver         incast: receiving host id
     * @param sizeBytes        incast/permutation: bytes per flow; poisson/hotspot: fixed flow size when
     *                         {@code cdf} is null
     * @param startPs          time the first flow starts, ps
     * @param load             poisson/hotspot: offered load as a fraction of host link rate, (0, 1]
     * @param cdf              poisson/hotspot: flow-size distribution, or null for the fixed {@code sizeBytes}
     * @param flows            poisson/hotspot: number of flows
     * @param hotFraction      hotspot: fraction of the flows sent to the hot set, [0, 1]
     * @param hotHostsFraction hotspot: fraction of the hosts in the hot set, (0, 1)
     * @param flowList         flows and file: the listed flows, flow id = list index (empty for the other types)
     * @param file             file: the HPCC ns-3 flow file read ({@code workload.path}), flow id = its line order;
     *                         null for the other types
     */
    public record Workload(String type, String op, int senders, int receiver, long sizeBytes, long startPs,
                           double load, FlowSizeCdf cdf, int flows, double hotFraction, double hotHostsFraction,
                           List<FlowSpec> flowList,
                           Ns3Flows file) {
    }

    /**
     * Sampling intervals.
     *
     * @param queueIntervalPs      interval of {@code queues.csv} samples, ps
     * @param rateIntervalPs       interval of {@code rates.csv} samples, ps
     * @param throughputIntervalPs interval of {@code throughput.csv} samples, ps
     * @param throughputChart      whether {@code throughput.png} is drawn after the run
     * @param charts               whether all four figures ({@code throughput.png}, {@code queues.png},
     *                             {@code rates.png}, {@code slowdown.png}) are drawn after the run
     *                             ({@code sampling.charts}, see {@code RunCharts})
     * @param allCounters          whether {@code counters.csv} lists every counter ({@code sampling.counters: all})
     *                             rather than those whose value is not 0 ({@code nonzero}, the default)
     */
    public record Sampling(long queueIntervalPs, long rateIntervalPs, long throughputIntervalPs,
                           boolean throughputChart, boolean charts, boolean allCounters) {
    }
}
