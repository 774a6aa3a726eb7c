package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.Runner;
import dev.nicsim.scenario.FlowSpec;
import dev.nicsim.nic.RoceNic;
import dev.nicsim.nic.RoceOpcodes;
import dev.nicsim.riscv.IoReasons;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketObserver;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sw.SwitchAsic;
import dev.nicsim.traces.PcapWriter;
import dev.nicsim.traces.RocePacket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A packet capture of a simulated link ({@code nicsim run --pcap FILE --pcap-at POINT}): a
 * {@link PacketObserver} on both transmitters of one link writes every frame to a pcap file with
 * the traces module's {@link PcapWriter} (Ethernet, 802.1Q priority tag, IPv4 with DSCP and ECN,
 * UDP 4791, BTH, RETH/AETH, ICRC; PFC pause frames), so Wireshark and tshark decode the simulated
 * traffic as RoCEv2.
 *
 * <h2>Tap points ({@link #parsePoint})</h2>
 * <ul>
 *   <li>{@code host:N}: the link of host N (its NIC port and the switch port facing it), both
 *       directions;</li>
 *   <li>{@code switch:S:port:P}: the link on port P of switch S (S = index in topology order or
 *       switch name, e.g. {@code sw0}, {@code leaf1}), both directions.</li>
 * </ul>
 * Each frame is stamped with the time its first bit leaves its transmitter (the start of
 * serialisation): frames towards the tapped host appear one serialisation plus propagation delay
 * before that host receives them. The file's clock starts at the Unix epoch (simulated time 0 =
 * 1970-01-01 00:00:00), nanosecond resolution.
 *
 * <h2>Encoding of the simulator's frames</h2>
 * <ul>
 *   <li>Addresses: host h is IPv4 10.0.0.0 + h + 1 (host 0 = 10.0.0.1), MAC 02:00:HH:HH:HH:HH (h);
 *       switch s port p has MAC 02:00:8S:SS:PP:PP (0x8000 | s, then p; locally administered, in
 *       no vendor table Wireshark names); a frame's Ethernet source and destination are
 *       the two ends of the tapped link (a routed fabric). Frames carry an 802.1Q tag with VLAN 0
 *       and PCP = the frame's priority, as the simulator's frame sizes count one
 *       ({@code RoceFraming}); PFC frames are untagged.</li>
 *   <li>RoCEv2: UDP source port = the packet's {@code udpSrcPort}, DSCP and ECN as the packet
 *       carries them (CE where a switch marked it), BTH opcode, PSN, destination QP, AckReq, BECN
 *       (CNPs), P_Key 0xFFFF; WRITE FIRST/ONLY and READ requests carry a RETH (DMA length = the
 *       message size, resp. the bytes asked for; VA and R_Key 0); ACK/NAK carry their AETH syndrome
 *       and MSN, READ RESPONSE FIRST/LAST/ONLY an ACK AETH (0x1F); payloads are zeros of the
 *       packet's payload length; ICRC valid.</li>
 *   <li>A data packet a switch trimmed ({@link Packet#trimmed}, docs/uet.md "Trimming"): its header frame,
 *       the same headers (BTH, and a RETH where the opcode has one) with no payload (the switch removed it)
 *       and a valid ICRC, zero-padded to the trimmed size the switch sends less the FCS when the headers are
 *       shorter: 62 bytes for a BTH-only packet at the default 64-byte trim (the RoCEv2 headers are longer
 *       than the 60 bytes of a 64-byte frame without FCS), 124 at a 128-byte trim.</li>
 *   <li>PFC (MAC control 0x8808, opcode 0x0101) with the frame's priority-enable vector and quanta.</li>
 *   <li>IFA2 RTT probes ({@code firmware.probe.format: ifa2}): IPv4 protocol 253, the IFA header, UDP 4791,
 *       the IFA metadata header and the per-hop records the switches inserted so far, newest first, then a
 *       24-byte MAD header of zeros and the send timestamp ({@link PcapWriter#writeIfa2Probe}).</li>
 *   <li>Not written (counted, {@link #skipped()}): CCMAD RTT probes and RTT responses (vendor-specific
 *       opcodes 0xC0/0xC1 with no standard header layout) and switch-to-switch RCM congestion
 *       notifications.</li>
 * </ul>
 *
 * <p>Allocation: none per frame (one reused field holder; {@link PcapWriter} is allocation-free).
 * Errors: write failures surface as {@link UncheckedIOException} from the simulation.
 * Thread-safety: simulation thread only.
 */
public final class PcapTap implements AutoCloseable {
    /** Default tap point. */
    public static final String DEFAULT_POINT = "host:0";
    private static final int PKEY_DEFAULT = 0xFFFF;

    private final PcapWriter writer;
    private final List<FlowSpec> flows;
    private final RocePacket holder = new RocePacket();
    private final String description;
    private final EgressPort[] ports;
    private long roceFrames;
    private long pfcFrames;
    private long skipped;
    private long ifa2Probes;

    private PcapTap(final PcapWriter writer, final List<FlowSpec> flows, final String description,
                    final EgressPort[] ports) {
        this.writer = writer;
        this.flows = flows;
        this.description = description;
        this.ports = ports;
    }

    /**
     * A parsed tap point.
     *
     * @param host      host id for {@code host:N}, else -1
     * @param switchRef switch index or name for {@code switch:S:port:P}, else null
     * @param port      switch port for {@code switch:S:port:P}, else -1
     * @param text      the point as given
     */
    public record Point(int host, String switchRef, int port, String text) {
    }

    /**
     * Parses a tap point.
     *
     * @param text {@code host:N} or {@code switch:S:port:P}
     * @return the point
     * @throws TraceException naming the option if the text is malformed
     */
    public static Point parsePoint(final String text) {
        final String[] parts = text.split(":", -1);
        try {
            if (parts.length == 2 && parts[0].equals("host")) {
                final int h = Integer.parseInt(parts[1]);
                if (h >= 0) {
                    return new Point(h, null, -1, text);
                }
            } else if (parts.length == 4 && parts[0].equals("switch") && parts[2].equals("port") && !parts[1].isEmpty()) {
                final int p = Integer.parseInt(parts[3]);
                if (p >= 0) {
                    return new Point(-1, parts[1], p, text);
                }
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw new TraceException("--pcap-at: expected host:N or switch:S:port:P (S an index or a name such as sw0), got '"
            + text + "'");
    }

    /**
     * Creates the pcap file and attaches the tap to both transmitters of the link at the point.
     * Call after building the runner and before running it; {@link #close()} after the run.
     *
     * @param runner the run (its NICs, switches and flows)
     * @param point  where to capture
     * @param file   the pcap file (replaced)
     * @return the tap
     * @throws TraceException if the point names no host, switch or connected port of the fabric, or
     *                        the file cannot be created
     */
    public static PcapTap attach(final Runner runner, final Point point, final Path file) {
        final Link link = link(runner, point);
        final PcapWriter writer;
        try {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            writer = PcapWriter.create(file);
        } catch (final IOException | UncheckedIOException e) {
            throw new TraceException(file + ": cannot write the pcap file: "
                + IoReasons.why(e instanceof UncheckedIOException u ? u.getCause() : (IOException) e));
        }
        final PcapTap tap = new PcapTap(writer, runner.flows(), point.text() + " (" + link.nearName + " <-> " + link.farName
            + ", both directions)", new EgressPort[] {link.near, link.far});
        link.near.setPacketObserver(tap.new Direction(link.nearMac, link.farMac));
        if (link.far != null) {
            link.far.setPacketObserver(tap.new Direction(link.farMac, link.nearMac));
        }
        return tap;
    }

    /**
     * Checks, writing nothing, that a point names a connected link of the run's fabric, as
     * {@link #attach} does first; commands call it before their first write.
     *
     * @param runner the run, built
     * @param point  where to capture
     * @throws TraceException if the point names no host, switch or connected port of the fabric
     */
    public static void check(final Runner runner, final Point point) {
        link(runner, point);
    }

    /** The two transmitters of a tapped link, their MAC addresses and names. */
    private record Link(EgressPort near, long nearMac, String nearName, EgressPort far, long farMac, String farName) {
    }

    /** Resolves a point against the fabric. */
    private static Link link(final Runner runner, final Point point) {
        final EgressPort near;
        final long nearMac;
        final String nearName;
        if (point.host() >= 0) {
            if (point.host() >= runner.hostCount()) {
                throw new TraceException("--pcap-at " + point.text() + ": the fabric has hosts 0.." + (runner.hostCount() - 1));
            }
            final RoceNic nic = runner.nic(point.host());
            near = nic.port();
            nearMac = hostMac(nic.hostId());
            nearName = nic.name();
        } else {
            final List<SwitchAsic> switches = runner.switches();
            final int s = switchIndex(switches, point);
            final SwitchAsic sw = switches.get(s);
            if (point.port() >= sw.portCount()) {
                throw new TraceException("--pcap-at " + point.text() + ": " + sw.name() + " has ports 0.." + (sw.portCount() - 1));
            }
            near = sw.egressPort(point.port());
            nearMac = switchMac(s, point.port());
            nearName = sw.name() + " port " + point.port();
        }
        if (near == null || near.peer() == null) {
            throw new TraceException("--pcap-at " + point.text() + ": " + nearName + " is not connected");
        }
        final NetDevice peer = near.peer();
        final EgressPort far;
        final long farMac;
        final String farName;
        if (peer instanceof RoceNic nic) {
            far = nic.port();
            farMac = hostMac(nic.hostId());
            farName = nic.name();
        } else if (peer instanceof SwitchAsic sw) {
            far = sw.egressPort(near.peerPort());
            farMac = switchMac(runner.switches().indexOf(sw), near.peerPort());
            farName = sw.name() + " port " + near.peerPort();
        } else {
            throw new TraceException("--pcap-at " + point.text() + ": the far end is neither a NIC nor a switch");
        }
        return new Link(near, nearMac, nearName, far, farMac, farName);
    }

    private static int switchIndex(final List<SwitchAsic> switches, final Point point) {
        final String ref = point.switchRef();
        for (int i = 0; i < switches.size(); i++) {
            if (switches.get(i).name().equals(ref)) {
                return i;
            }
        }
        try {
            final int s = Integer.parseInt(ref);
            if (s >= 0 && s < switches.size()) {
                return s;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        final StringBuilder names = new StringBuilder();
        for (final SwitchAsic sw : switches) {
            names.append(names.length() == 0 ? "" : ", ").append(sw.name());
        }
        throw new TraceException("--pcap-at " + point.text() + ": no switch '" + ref + "'; the fabric has 0.."
            + (switches.size() - 1) + " (" + names + ")");
    }

    /**
     * MAC address of a host's NIC.
     *
     * @param host host id, 0..2^31-1
     * @return 02:00:HH:HH:HH:HH as a 48-bit value
     */
    public static long hostMac(final int host) {
        return 0x0200_0000_0000L | (host & 0x7FFF_FFFFL);
    }

    /**
     * MAC address of a switch port.
     *
     * @param sw   switch index, 0..32767
     * @param port port number, 0..65535
     * @return 02:00:8S:SS:PP:PP as a 48-bit value
     */
    public static long switchMac(final int sw, final int port) {
        return 0x0200_8000_0000L | ((sw & 0x7FFFL) << 16) | (port & 0xFFFFL);
    }

    /**
     * IPv4 address of a host.
     *
     * @param host host id, 0..2^24-2
     * @return 10.0.0.0 + host + 1 as a 32-bit value
     */
    public static int hostIpv4(final int host) {
        return 0x0A00_0000 + host + 1;
    }

    /** @return the tap point and the link it captures, for messages */
    public String description() {
        return description;
    }

    /** @return RoCEv2 frames written */
    public long roceFrames() {
        return roceFrames;
    }

    /** @return PFC frames written */
    public long pfcFrames() {
        return pfcFrames;
    }

    /** @return IFA2 probes written (RTT probes with an IFA2 header, {@code firmware.probe.format: ifa2}) */
    public long ifa2Probes() {
        return ifa2Probes;
    }

    /** @return frames seen but not written (CCMAD RTT probes, RTT responses, RCM notifications) */
    public long skipped() {
        return skipped;
    }

    /** Detaches from the ports and closes the file (idempotent). */
    @Override
    public void close() {
        for (final EgressPort p : ports) {
            if (p != null && p.packetObserver() instanceof Direction d && d.owner() == this) {
                p.setPacketObserver(null);
            }
        }
        writer.close();
    }

    /** Scratch for a PFC frame's eight quanta, filled from the frame for the writer. */
    private final int[] pfcQuanta = new int[8];

    private void write(final Packet f, final long timePs, final long srcMac, final long dstMac) {
        switch (f.kind) {
            case Packet.KIND_PFC -> {
                for (int prio = 0; prio < 8; prio++) {
                    pfcQuanta[prio] = f.pfcQuanta(prio);
                }
                writer.writePfc(timePs, srcMac, f.pfcClassEnable, pfcQuanta);
                pfcFrames++;
            }
            case Packet.KIND_DATA, Packet.KIND_ACK, Packet.KIND_CNP, Packet.KIND_READ_REQUEST -> {
                fill(f, srcMac, dstMac);
                // a trimmed header: its headers without payload, padded to the size the switch sends (no FCS)
                writer.writeRoceV2(holder, timePs, f.trimmed ? f.frameBytes - RoceFraming.ETH_FCS_BYTES : 0);
                roceFrames++;
            }
            case Packet.KIND_RTT_PROBE -> {
                if (f.ifa2HopLimit < 0) {
                    skipped++; // a CCMAD probe: no standard header layout
                    return;
                }
                writer.writeIfa2Probe(timePs, dstMac, srcMac, f.priority, hostIpv4(f.srcHost), hostIpv4(f.dstHost), f.dscp,
                    f.ecn, f.udpSrcPort, f.ifa2Gns, f.ifa2HopLimit, f.intHops, f.intHopCount, Packet.INT_MAX_HOPS,
                    f.txTimestampNs);
                ifa2Probes++;
            }
            default -> skipped++;
        }
    }

    private void fill(final Packet f, final long srcMac, final long dstMac) {
        final RocePacket h = holder;
        h.clear();
        h.srcMac = srcMac;
        h.dstMac = dstMac;
        h.vlanId = 0;
        h.pcp = f.priority & 7;
        h.srcIpv4(hostIpv4(f.srcHost));
        h.dstIpv4(hostIpv4(f.dstHost));
        h.dscp = f.dscp;
        h.ecn = f.ecn;
        h.udpSrcPort = f.udpSrcPort & 0xFFFF;
        h.opcode = f.opcode;
        h.pkey = PKEY_DEFAULT;
        h.becn = f.becn;
        h.destQp = f.dstQpn;
        h.ackReq = f.ackReq;
        h.psn = f.psn;
        switch (f.kind) {
            case Packet.KIND_DATA -> {
                h.payloadBytes = f.payloadBytes;
                if (f.opcode == RoceOpcodes.WRITE_FIRST || f.opcode == RoceOpcodes.WRITE_ONLY) {
                    h.rethDmaLength = f.flowId >= 0 && f.flowId < flows.size() ? flows.get(f.flowId).sizeBytes()
                        : f.payloadBytes;
                } else if (RoceOpcodes.extHeaderBytes(f.opcode) == 4) { // READ RESPONSE FIRST/LAST/ONLY
                    h.aethSyndrome = Packet.AETH_ACK;
                    h.aethMsn = f.msn;
                }
            }
            case Packet.KIND_READ_REQUEST -> {
                h.payloadBytes = 0;
                h.rethDmaLength = f.payloadBytes & 0xFFFF_FFFFL;
            }
            case Packet.KIND_ACK -> {
                h.payloadBytes = 0;
                h.aethSyndrome = f.aethSyndrome;
                h.aethMsn = f.msn;
            }
            default -> h.payloadBytes = 0; // CNP: the writer adds its 16 reserved bytes
        }
    }

    /** The observer on one transmitter of the link. */
    private final class Direction implements PacketObserver {
        private final long srcMac;
        private final long dstMac;

        Direction(final long srcMac, final long dstMac) {
            this.srcMac = srcMac;
            this.dstMac = dstMac;
        }

        PcapTap owner() {
            return PcapTap.this;
        }

        @Override
        public void onTransmit(final EgressPort port, final Packet frame, final long timePs) {
            write(frame, timePs, srcMac, dstMac);
        }
    }
}
