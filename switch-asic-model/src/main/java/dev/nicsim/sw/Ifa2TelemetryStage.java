package dev.nicsim.sw;

import dev.nicsim.sim.Packet;

/**
 * IFA2 per-hop metadata insertion (In-situ Flow Information Telemetry, draft-kumar-ippm-ifa; the
 * record NVIDIA's DOCA switch-telemetry notification point parses: DOCA PCC fact sheet Addendum
 * B.2, B.3, B.9). When an RTT probe request that carries an IFA2 header ({@link Packet#ifa2HopLimit}
 * {@code >= 0}) starts serialisation on an egress port, the switch inserts one 32-byte record
 * directly after the metadata header (the newest record comes first on the wire), decrements the Hop
 * Limit, adds 8 (4-octet units) to Current Length and grows the frame by 32 bytes (the IPv4 total
 * length and header checksum follow; the UDP length does not, B.2). It inserts nothing when Hop Limit
 * is 0 or Current Length has reached Max Length ({@link #MAX_RECORDS} records).
 *
 * <p>Record layout (B.3, "Mellanox format"; offsets within the record, big-endian):
 * <ul>
 * <li>0-2: device ID bits 29-6 (the switch's index in the topology, {@code >>> 6}); 3: device ID bits
 *     5-0 in bits 7-2, port type in bits 1-0 (1 for an egress link of 100 Gb/s or more, else 0;
 *     the sample's comment defines 0 = 25 Gb/s and 1 = 100 Gb/s, other codes are not established);</li>
 * <li>4: TID/congestion 0; 5: bits 39-32 of the port's transmitted bytes; 6: IP TTL after this hop
 *     (64 at the sender, minus one per inserting hop); 7: queue ID = the frame's priority;</li>
 * <li>8-9: 0x8000 (the marker of the Mellanox format), 10-11: queued bytes bits 31-16;</li>
 * <li>12-13: arrival time, whole seconds mod 2^16; 14-17: arrival time, ns within that second;</li>
 * <li>18-21: TX time, ns mod 2^32 (free-running, so a 2^32 ns wrap is the only discontinuity);</li>
 * <li>22-23: queued bytes bits 15-0 (so bytes 10-11 and 22-23 together carry 32 bits of bytes);</li>
 * <li>24-25: ingress port; 26-27: egress port; 28-31: bits 31-0 of the port's transmitted bytes.</li>
 * </ul>
 * The counters are the HPCC INT hop's ({@link IntTelemetryStage}): the port's transmitted bytes
 * before this frame, the bytes queued at the port over all priorities when the frame starts, the
 * time the frame starts. The frame's serialisation at this hop keeps its length before insertion;
 * the next hop and the receiver see the longer frame.
 *
 * <p>Allocation-free. Thread-safety: stateless; called on the simulation thread.
 */
final class Ifa2TelemetryStage {
    /** Records one probe can hold: Max Length = 8 x this (4-octet units), the room of {@link Packet#intHops}. */
    static final int MAX_RECORDS = Packet.INT_MAX_HOPS;
    /** IP TTL an IFA2 probe leaves its sender with. */
    static final int INITIAL_TTL = 64;
    /** Link rate from which the record's port type is 1. */
    static final long PORT_TYPE_1_BITS_PER_SEC = 100_000_000_000L;

    private Ifa2TelemetryStage() {
    }

    /**
     * Inserts this egress's record into an IFA2 probe that still has Hop Limit and room.
     *
     * @param port      the egress port the frame starts on
     * @param portIndex its number on the switch, 0..65535
     * @param deviceId  the switch's device ID, 0 .. 2^30 - 1 (bits above are dropped)
     * @param frame     the frame (only {@link Packet#KIND_RTT_PROBE} frames with {@code ifa2HopLimit > 0} are touched)
     * @param nowPs     current simulated time, ps
     */
    static void onTransmitStart(final SwitchPort port, final int portIndex, final int deviceId, final Packet frame,
                                final long nowPs) {
        if (frame.kind != Packet.KIND_RTT_PROBE || frame.ifa2HopLimit <= 0 || frame.intHops == null
            || frame.intHopCount >= MAX_RECORDS) {
            return;
        }
        long queued = 0;
        for (int prio = 0; prio < SwitchConfig.PRIORITIES; prio++) {
            queued += port.depthBytes(prio);
        }
        final long txBytes = port.txBytes() - frame.frameBytes; // the port's bytes before this frame
        final int portType = port.rateBitsPerSec() >= PORT_TYPE_1_BITS_PER_SEC ? 1 : 0;
        final long arrivalNs = frame.enqueuePs / 1000;
        final long nowNs = nowPs / 1000;
        final int ttl = Math.max(0, INITIAL_TTL - frame.intHopCount - 1);
        final long w0 = (long) ((deviceId >>> 6) & 0xFF_FFFF) << 40
            | (long) ((deviceId & 0x3F) << 2 | portType) << 32
            | (txBytes >>> 32 & 0xFF) << 16
            | (long) ttl << 8
            | (frame.priority & 0xFF);
        final long w1 = 0x8000L << 48
            | (queued >>> 16 & 0xFFFF) << 32
            | (arrivalNs / 1_000_000_000L & 0xFFFF) << 16
            | (arrivalNs % 1_000_000_000L) >>> 16;
        final long w2 = (arrivalNs % 1_000_000_000L & 0xFFFF) << 48
            | (nowNs & 0xFFFF_FFFFL) << 16
            | (queued & 0xFFFF);
        final long w3 = (long) (frame.ingressPort & 0xFFFF) << 48
            | (long) (portIndex & 0xFFFF) << 32
            | (txBytes & 0xFFFF_FFFFL);
        final int i = frame.intHopCount * Packet.IFA2_RECORD_LONGS;
        frame.intHops[i] = w0;
        frame.intHops[i + 1] = w1;
        frame.intHops[i + 2] = w2;
        frame.intHops[i + 3] = w3;
        frame.intHopCount++;
        frame.ifa2HopLimit--;
        frame.frameBytes += Packet.IFA2_RECORD_BYTES;
    }
}
