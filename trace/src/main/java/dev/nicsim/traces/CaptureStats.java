package dev.nicsim.traces;

import java.util.Arrays;

/**
 * What a capture held: packets read, transport packets by BTH opcode and by encapsulation, skipped
 * frames by {@link SkipReasons reason}, ECN codepoints and CE marks, FECN/BECN, AETH syndromes,
 * ICRC and VCRC results, pause frames. Filled by {@link #record(RocePacket)} for every frame.
 *
 * <p>Allocation: none in {@link #record}; the summaries build strings. Thread-safety: not
 * thread-safe; read it after decoding or from the decoding thread.
 */
public final class CaptureStats {
    private long packets;
    private long transportPackets;
    private final long[] byEncapsulation = new long[4];
    private final long[] byOpcode = new long[256];
    private final long[] skipped = new long[SkipReasons.COUNT];
    private final long[] byEcn = new long[4];
    private long fecn;
    private long becn;
    private final long[] byAethSyndrome = new long[256];
    private long icrcOk;
    private long icrcBad;
    private long icrcNotChecked;
    private long vcrcOk;
    private long vcrcBad;
    private long ipChecksumBad;
    private long pfcFrames;
    private long pauseFrames;
    private long payloadBytes;
    private long reordered;
    private long largestReorderNs;
    private long largestReorderPackets;

    /** Creates empty statistics. */
    public CaptureStats() {
    }

    /** Zeroes every count. */
    public void reset() {
        packets = 0;
        transportPackets = 0;
        Arrays.fill(byEncapsulation, 0);
        Arrays.fill(byOpcode, 0);
        Arrays.fill(skipped, 0);
        Arrays.fill(byEcn, 0);
        fecn = 0;
        becn = 0;
        Arrays.fill(byAethSyndrome, 0);
        icrcOk = 0;
        icrcBad = 0;
        icrcNotChecked = 0;
        vcrcOk = 0;
        vcrcBad = 0;
        ipChecksumBad = 0;
        pfcFrames = 0;
        pauseFrames = 0;
        payloadBytes = 0;
        reordered = 0;
        largestReorderNs = 0;
        largestReorderPackets = 0;
    }

    /**
     * Counts one packet that {@link CaptureDecoder} moved earlier to put its interface's packets in
     * timestamp order (its timestamp is before an earlier packet's, within the reorder window).
     *
     * @param displacementNs      how far its timestamp is before the latest one read before it on its
     *                            interface, ns, 1..
     * @param displacementPackets how many packets before it in the file (on its interface) it moved
     *                            ahead of, 1..
     */
    public void recordReordered(final long displacementNs, final long displacementPackets) {
        reordered++;
        largestReorderNs = Math.max(largestReorderNs, displacementNs);
        largestReorderPackets = Math.max(largestReorderPackets, displacementPackets);
    }

    /** @return packets moved earlier into timestamp order (see {@link #recordReordered}) */
    public long reordered() {
        return reordered;
    }

    /** @return the largest time displacement of a reordered packet, ns; 0 when none */
    public long largestReorderNs() {
        return largestReorderNs;
    }

    /** @return the largest number of packets a reordered packet moved ahead of; 0 when none */
    public long largestReorderPackets() {
        return largestReorderPackets;
    }

    /**
     * Counts one decoded (or skipped) frame.
     *
     * @param p the packet as {@link RoceDecoder} left it
     */
    public void record(final RocePacket p) {
        packets++;
        switch (p.kind) {
            case RocePacket.KIND_ROCE -> {
                transportPackets++;
                byEncapsulation[p.encapsulation & 3]++;
                byOpcode[p.opcode & 0xFF]++;
                if (p.encapsulation != RocePacket.ENCAP_IB) {
                    byEcn[p.ecn & 3]++;
                }
                if (p.fecn) {
                    fecn++;
                }
                if (p.becn) {
                    becn++;
                }
                if (p.hasAeth) {
                    byAethSyndrome[p.aethSyndrome & 0xFF]++;
                }
                switch (p.icrcStatus) {
                    case RocePacket.CRC_OK -> icrcOk++;
                    case RocePacket.CRC_BAD -> icrcBad++;
                    default -> icrcNotChecked++;
                }
                if (p.vcrcStatus == RocePacket.CRC_OK) {
                    vcrcOk++;
                } else if (p.vcrcStatus == RocePacket.CRC_BAD) {
                    vcrcBad++;
                }
                if (!p.ipChecksumOk) {
                    ipChecksumBad++;
                }
                payloadBytes += p.payloadBytes;
            }
            case RocePacket.KIND_PAUSE -> {
                if (p.pauseOpcode == RoceDecoder.MAC_CONTROL_PFC) {
                    pfcFrames++;
                } else {
                    pauseFrames++;
                }
            }
            default -> skipped[p.skipReason]++;
        }
    }

    /** @return frames read from the capture (decoded, pause and skipped) */
    public long packets() {
        return packets;
    }

    /** @return InfiniBand transport packets decoded (RoCEv2 + RoCEv1 + native IB) */
    public long transportPackets() {
        return transportPackets;
    }

    /**
     * @param encapsulation {@link RocePacket#ENCAP_ROCE_V2}, {@link RocePacket#ENCAP_ROCE_V1} or {@link RocePacket#ENCAP_IB}
     * @return transport packets with that encapsulation
     */
    public long byEncapsulation(final int encapsulation) {
        return byEncapsulation[encapsulation & 3];
    }

    /**
     * @param opcode BTH opcode, 0..255
     * @return transport packets with that opcode
     */
    public long opcodeCount(final int opcode) {
        return byOpcode[opcode & 0xFF];
    }

    /**
     * @param reason a {@link SkipReasons} code
     * @return frames skipped for that reason
     * @throws IllegalArgumentException if the code is out of range
     */
    public long skipped(final int reason) {
        if (reason < 0 || reason >= SkipReasons.COUNT) {
            throw new IllegalArgumentException("skip reason " + reason + " is not in 0.." + (SkipReasons.COUNT - 1));
        }
        return skipped[reason];
    }

    /** @return frames skipped for any reason */
    public long skippedTotal() {
        long n = 0;
        for (final long s : skipped) {
            n += s;
        }
        return n;
    }

    /**
     * @param ecn ECN codepoint 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
     * @return RoCE (v1, v2) packets carrying it
     */
    public long ecnCount(final int ecn) {
        return byEcn[ecn & 3];
    }

    /** @return RoCE packets marked CE (ECN 11) */
    public long ceMarks() {
        return byEcn[3];
    }

    /** @return transport packets with the BTH BECN bit */
    public long becnMarks() {
        return becn;
    }

    /**
     * @param syndrome AETH syndrome byte, 0..255
     * @return AETHs with that syndrome
     */
    public long aethSyndromeCount(final int syndrome) {
        return byAethSyndrome[syndrome & 0xFF];
    }

    /** @return AETHs of class ACK (syndromes 0x00-0x1F) */
    public long aethAcks() {
        return sumSyndromes(0x00);
    }

    /** @return AETHs of class RNR NAK (syndromes 0x20-0x3F) */
    public long aethRnrNaks() {
        return sumSyndromes(0x20);
    }

    /** @return AETHs of class NAK (syndromes 0x60-0x7F) */
    public long aethNaks() {
        return sumSyndromes(0x60);
    }

    private long sumSyndromes(final int base) {
        long n = 0;
        for (int i = 0; i < 32; i++) {
            n += byAethSyndrome[base + i];
        }
        return n;
    }

    /** @return transport packets whose ICRC matched */
    public long icrcOk() {
        return icrcOk;
    }

    /** @return transport packets whose ICRC did not match */
    public long icrcBad() {
        return icrcBad;
    }

    /** @return transport packets whose ICRC could not be checked (cut by the snap length) */
    public long icrcNotChecked() {
        return icrcNotChecked;
    }

    /** @return native IB packets whose VCRC matched */
    public long vcrcOk() {
        return vcrcOk;
    }

    /** @return native IB packets whose VCRC did not match */
    public long vcrcBad() {
        return vcrcBad;
    }

    /** @return RoCEv2/IPv4 packets whose IPv4 header checksum is wrong */
    public long ipChecksumBad() {
        return ipChecksumBad;
    }

    /** @return PFC frames (MAC control opcode 0x0101) */
    public long pfcFrames() {
        return pfcFrames;
    }

    /** @return 802.3x PAUSE frames (MAC control opcode 0x0001) */
    public long pauseFrames() {
        return pauseFrames;
    }

    /** @return sum of transport payload bytes */
    public long payloadBytes() {
        return payloadBytes;
    }

    /**
     * The skipped frames by reason, for messages (allocates).
     *
     * @return e.g. {@code "4 non-RoCE EtherType, 1 IP fragment"}, or {@code "none"}
     */
    public String skippedSummary() {
        final StringBuilder b = new StringBuilder();
        for (int r = 1; r < SkipReasons.COUNT; r++) {
            if (skipped[r] > 0) {
                if (b.length() > 0) {
                    b.append(", ");
                }
                b.append(skipped[r]).append(' ').append(SkipReasons.name(r));
            }
        }
        return b.length() == 0 ? "none" : b.toString();
    }

    /**
     * One line of counts for messages (allocates).
     *
     * @return e.g. {@code "16 packets read: 12 RoCE, 4 skipped (4 non-RoCE EtherType)"}; when packets
     *         were put back in timestamp order, followed by e.g. {@code ", 1 reordered by timestamp
     *         (largest displacement 1000 ns, 1 packet)"}
     */
    public String summary() {
        final StringBuilder b = new StringBuilder();
        b.append(packets).append(packets == 1 ? " packet read: " : " packets read: ").append(transportPackets).append(" RoCE/IB");
        if (pfcFrames + pauseFrames > 0) {
            b.append(", ").append(pfcFrames + pauseFrames).append(" pause");
        }
        final long s = skippedTotal();
        b.append(", ").append(s).append(" skipped");
        if (s > 0) {
            b.append(" (").append(skippedSummary()).append(')');
        }
        if (reordered > 0) {
            b.append(", ").append(reordered).append(" reordered by timestamp (largest displacement ")
                .append(largestReorderNs).append(" ns, ").append(largestReorderPackets)
                .append(largestReorderPackets == 1 ? " packet)" : " packets)");
        }
        return b.toString();
    }

    /**
     * A multi-line report: counts by opcode (with names), encapsulation, ECN, AETH syndromes, CRCs
     * and skipped frames (allocates).
     *
     * @return the report, lines separated by {@code '\n'}
     */
    public String report() {
        final StringBuilder b = new StringBuilder();
        b.append(summary()).append('\n');
        b.append("encapsulation: RoCEv2 ").append(byEncapsulation[RocePacket.ENCAP_ROCE_V2])
            .append(", RoCEv1 ").append(byEncapsulation[RocePacket.ENCAP_ROCE_V1])
            .append(", InfiniBand ").append(byEncapsulation[RocePacket.ENCAP_IB]).append('\n');
        for (int op = 0; op < 256; op++) {
            if (byOpcode[op] > 0) {
                b.append(String.format("opcode 0x%02x (%d) %-34s %d\n", op, op, IbOpcodes.name(op), byOpcode[op]));
            }
        }
        b.append("ECN: Not-ECT ").append(byEcn[0]).append(", ECT(1) ").append(byEcn[1]).append(", ECT(0) ")
            .append(byEcn[2]).append(", CE ").append(byEcn[3]).append("; FECN ").append(fecn).append(", BECN ")
            .append(becn).append('\n');
        for (int s = 0; s < 256; s++) {
            if (byAethSyndrome[s] > 0) {
                b.append(String.format("AETH syndrome 0x%02x: %d\n", s, byAethSyndrome[s]));
            }
        }
        b.append("ICRC: ").append(icrcOk).append(" ok, ").append(icrcBad).append(" bad, ").append(icrcNotChecked)
            .append(" not checked (cut)");
        if (vcrcOk + vcrcBad > 0) {
            b.append("; VCRC: ").append(vcrcOk).append(" ok, ").append(vcrcBad).append(" bad");
        }
        b.append('\n');
        b.append("skipped: ").append(skippedSummary()).append('\n');
        return b.toString();
    }
}
