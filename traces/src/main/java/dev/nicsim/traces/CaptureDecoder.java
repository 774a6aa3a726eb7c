package dev.nicsim.traces;

import java.nio.file.Path;

/**
 * Reads a capture ({@link CaptureReader}), decodes every frame ({@link RoceDecoder}), counts it
 * ({@link CaptureStats}) and hands transport packets and pause frames to a
 * {@link RocePacketHandler}, in capture order.
 *
 * <h2>Bad input</h2>
 * Framing errors (wrong magic, truncated file, corrupt record or block lengths, a classic pcap
 * file whose link type is not {@link LinkTypes#isSupported supported}) always throw
 * {@link CaptureException}. Packet-level problems depend on the mode:
 * <ul>
 *   <li>strict (the default): a frame whose headers are cut by the snap length before it can be
 *       classified and decoded, a header field holding garbage (see {@link RoceDecoder}), or an
 *       original length below the captured length throws, naming the packet;</li>
 *   <li>lenient: such frames are skipped and counted ({@link SkipReasons#CUT_BY_SNAPLEN},
 *       {@link SkipReasons#MALFORMED}) and decoding goes on; a last record cut by the end of the
 *       file (a capture stopped mid-write) is counted ({@link SkipReasons#CUT_AT_END_OF_FILE}) and
 *       the packets before it are kept.</li>
 * </ul>
 * Timestamps (per interface of a pcapng section, whose clocks may differ): a packet whose
 * timestamp goes back before the previous packet's on its interface, or jumps more than
 * {@link #MAX_TIMESTAMP_GAP_NS} after it, is refused in strict mode (naming the packet) and
 * skipped and counted ({@link SkipReasons#BAD_TIMESTAMP}) in lenient mode. A RoCE packet whose
 * ICRC does not match is skipped and counted ({@link SkipReasons#BAD_ICRC}) in strict mode; lenient
 * mode keeps it (and {@link CaptureStats#icrcBad()} counts it).
 *
 * <p>A packet whose headers are complete but whose payload or ICRC is cut (the usual
 * {@code tcpdump -s 128}) is never an error: it is decoded, the payload length comes from the length
 * fields and the ICRC counts as {@link CaptureStats#icrcNotChecked() not checked}. Frames that are
 * simply not RoCE (ARP, TCP, other UDP ports, ...) are skipped and counted in both modes. A pcapng
 * file in which every packet was on an unsupported link type throws at the end. Every exception's
 * message is one line with the file, the packet number and what was read and skipped before.
 *
 * <p>Allocation: none per packet in steady state. Thread-safety: not thread-safe; one decoder per
 * thread; reusable for several captures one after another.
 */
public final class CaptureDecoder {
    /**
     * Largest forward step between consecutive packets' timestamps, ns (1 day): a larger one is
     * absurd (e.g. {@code ts_sec = 0xFFFFFFFF}) and would stretch every derived event time.
     */
    public static final long MAX_TIMESTAMP_GAP_NS = 86_400L * 1_000_000_000L;

    private final boolean strict;
    /** Per interface of the current section: the last accepted packet's number (0: none yet). */
    private long[] previousNumbers = new long[4];
    /** Per interface of the current section: the last accepted packet's timestamp, ns. */
    private long[] previousNs = new long[4];
    private final RoceDecoder decoder = new RoceDecoder();
    private final RocePacket packet = new RocePacket();
    private final CaptureStats stats = new CaptureStats();

    /** Creates a strict decoder (cut headers and garbage fields throw). */
    public CaptureDecoder() {
        this(true);
    }

    /**
     * Creates a decoder.
     *
     * @param strict true to throw on cut headers and garbage fields, false to skip and count them
     */
    public CaptureDecoder(final boolean strict) {
        this.strict = strict;
    }

    /** @return whether cut headers and garbage fields throw */
    public boolean strict() {
        return strict;
    }

    /** @return the counts of the last (or current) capture; reset at the start of each decode */
    public CaptureStats stats() {
        return stats;
    }

    /**
     * Decodes a capture file.
     *
     * @param file    pcap or pcapng file
     * @param handler receives every decoded packet
     * @return the counts ({@link #stats()})
     * @throws CaptureException on bad input (see the class comment)
     */
    public CaptureStats decode(final Path file, final RocePacketHandler handler) throws CaptureException {
        stats.reset();
        try (CaptureReader reader = CaptureReader.open(file)) {
            return decode(reader, handler);
        }
    }

    /**
     * Decodes a capture held in memory.
     *
     * @param name    label for messages
     * @param data    the capture bytes
     * @param handler receives every decoded packet
     * @return the counts ({@link #stats()})
     * @throws CaptureException on bad input (see the class comment)
     */
    public CaptureStats decode(final String name, final byte[] data, final RocePacketHandler handler)
        throws CaptureException {
        stats.reset();
        try (CaptureReader reader = CaptureReader.open(name, data)) {
            return decode(reader, handler);
        }
    }

    /**
     * Decodes the remaining packets of an open reader (the caller closes it).
     *
     * @param reader  an open reader
     * @param handler receives every decoded packet
     * @return the counts ({@link #stats()})
     * @throws CaptureException on bad input (see the class comment)
     */
    public CaptureStats decode(final CaptureReader reader, final RocePacketHandler handler) throws CaptureException {
        return decodeAll(reader, handler);
    }

    /**
     * {@link CaptureReader#next}; in lenient mode a last record cut by the end of the file is
     * counted ({@link SkipReasons#CUT_AT_END_OF_FILE}) and ends the capture, keeping the packets
     * before it.
     */
    private boolean next(final CaptureReader reader, final RocePacket p) throws CaptureException {
        try {
            return reader.next();
        } catch (final CaptureException e) {
            if (strict || !reader.lastRecordCut()) {
                throw e;
            }
            p.clear();
            p.packetNumber = reader.packetNumber() + 1;
            p.skipReason = SkipReasons.CUT_AT_END_OF_FILE;
            p.problem = e.getMessage();
            stats.record(p);
            return false;
        }
    }

    private CaptureStats decodeAll(final CaptureReader reader, final RocePacketHandler handler) throws CaptureException {
        stats.reset();
        final String name = reader.name();
        if (reader.format() == CaptureReader.FORMAT_PCAP && !LinkTypes.isSupported(reader.fileLinkType())) {
            throw new CaptureException(name, 0, "link type " + LinkTypes.describe(reader.fileLinkType())
                + " is not supported (nicsim decodes 1 (Ethernet) and 197 (ERF))");
        }
        final RocePacket p = packet;
        int unsupportedLinkType = -1;
        long decoded = 0;
        try {
            int section = -1;
            while (next(reader, p)) {
                p.clear();
                p.packetNumber = reader.packetNumber();
                p.timeNs = reader.timestampNs();
                p.interfaceId = reader.interfaceId();
                if (reader.section() != section) { // a new pcapng section: new interfaces, maybe a new clock
                    section = reader.section();
                    java.util.Arrays.fill(previousNumbers, 0);
                }
                final int iface = p.interfaceId;
                if (iface >= previousNumbers.length) {
                    previousNumbers = java.util.Arrays.copyOf(previousNumbers, Math.max(iface + 1, 2 * previousNumbers.length));
                    previousNs = java.util.Arrays.copyOf(previousNs, previousNumbers.length);
                }
                final long previousNumber = previousNumbers[iface];
                final long previous = previousNs[iface];
                if (previousNumber > 0 && (p.timeNs < previous || p.timeNs - previous > MAX_TIMESTAMP_GAP_NS)) {
                    final String problem = p.timeNs < previous
                        ? "timestamp out of order: " + (previous - p.timeNs) + " ns before packet " + previousNumber + "'s"
                        : "absurd timestamp: " + (p.timeNs - previous) / 1_000_000_000L + " s after packet "
                            + previousNumber + "'s (more than " + MAX_TIMESTAMP_GAP_NS / 1_000_000_000L + " s)";
                    if (strict) {
                        throw new CaptureException(name, p.packetNumber, problem + "; --lenient skips and counts such"
                            + " packets", stats.summary());
                    }
                    p.skipReason = SkipReasons.BAD_TIMESTAMP;
                    p.problem = problem;
                    stats.record(p);
                    continue;
                }
                previousNs[iface] = p.timeNs;
                previousNumbers[iface] = p.packetNumber;
                final int cap = reader.capturedLength();
                final int orig = reader.originalLength();
                if (strict && orig < cap) {
                    throw new CaptureException(name, p.packetNumber, "garbage in the record header: original length "
                        + orig + " is less than the captured length " + cap, stats.summary());
                }
                final int kind = decoder.decode(reader.linkType(), reader.data(), reader.dataOffset(), cap, orig, p);
                if (kind == RocePacket.KIND_SKIPPED) {
                    final int reason = p.skipReason;
                    if (strict && (reason == SkipReasons.CUT_BY_SNAPLEN || reason == SkipReasons.MALFORMED)) {
                        throw new CaptureException(name, p.packetNumber, p.problem, stats.summary());
                    }
                    if (reason == SkipReasons.UNSUPPORTED_LINK_TYPE) {
                        unsupportedLinkType = p.linkType;
                    }
                    stats.record(p);
                } else if (strict && p.kind == RocePacket.KIND_ROCE && p.icrcStatus == RocePacket.CRC_BAD) {
                    p.kind = RocePacket.KIND_SKIPPED; // a corrupted packet derives no event
                    p.skipReason = SkipReasons.BAD_ICRC;
                    stats.record(p);
                } else {
                    stats.record(p);
                    decoded++;
                    handler.onPacket(p);
                }
            }
        } catch (final CaptureException e) {
            throw e.counts().isEmpty() ? e.withCounts(stats.summary()) : e;
        }
        if (decoded == 0 && unsupportedLinkType >= 0 && stats.skipped(SkipReasons.UNSUPPORTED_LINK_TYPE) == stats.packets()) {
            throw new CaptureException(name, 0, "no packet on a supported link type: link type "
                + LinkTypes.describe(unsupportedLinkType) + " is not supported (nicsim decodes 1 (Ethernet) and 197 (ERF))",
                stats.summary());
        }
        return stats;
    }
}
