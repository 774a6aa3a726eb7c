package dev.nicsim.traces;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;

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
 * A packet on a pcapng interface whose link type nicsim does not decode is refused in strict mode
 * (naming the packet and the interface) and skipped and counted
 * ({@link SkipReasons#UNSUPPORTED_LINK_TYPE}) in lenient mode. A RoCE packet whose ICRC does not
 * match is skipped and counted ({@link SkipReasons#BAD_ICRC}) in strict mode; lenient mode keeps it
 * (and {@link CaptureStats#icrcBad()} counts it).
 *
 * <h2>Timestamp order</h2>
 * Hardware stamps packets as they arrive, on several receive queues, and the capture merges the
 * queues, so a packet may be recorded after packets stamped a little later. The decoder hands the
 * packets of each interface on in timestamp order, as Wireshark's {@code reordercap} sorts them (a
 * stable sort: equal timestamps keep their file order), but streaming: it holds every packet until
 * a packet stamped at least the reorder window after it has been read on its interface (or the
 * section or capture ends), so it keeps at most a window's worth of packets
 * ({@link #MAX_BUFFERED_BYTES} at most). The sort key is the record's timestamp, or for ERF the ERF
 * header's. Interfaces of a pcapng section are sorted separately (their clocks may differ) and a
 * new section starts afresh. A packet moved earlier is counted
 * ({@link CaptureStats#recordReordered}). Refused in strict mode and skipped and counted
 * ({@link SkipReasons#BAD_TIMESTAMP}) in lenient mode, naming the packet: a timestamp more than
 * the window before the latest one read on its interface (no window explains it), and an absurd
 * timestamp, before 1970-01-01 or from 2100-01-01 on ({@link #MIN_TIMESTAMP_NS},
 * {@link #END_TIMESTAMP_NS}).
 *
 * <p>A packet whose headers are complete but whose payload or ICRC is cut (the usual
 * {@code tcpdump -s 128}) is never an error: it is decoded, the payload length comes from the length
 * fields and the ICRC counts as {@link CaptureStats#icrcNotChecked() not checked}. Frames that are
 * simply not RoCE (ARP, TCP, other UDP ports, ...) are skipped and counted in both modes. In lenient
 * mode, a pcapng file in which every packet was on an unsupported link type throws at the end. Every exception's
 * message is one line with the file, the packet number and what was read and skipped before.
 *
 * <p>Allocation: none per packet in steady state. Thread-safety: not thread-safe; one decoder per
 * thread; reusable for several captures one after another.
 */
public final class CaptureDecoder {
    /**
     * Default reorder window, ns (1 ms): NICs stamp packets at arrival and several receive queues
     * are merged into one capture within the time a queue waits to be drained (interrupt moderation
     * of tens of us, a polling cycle), far below a millisecond; a millisecond is also below any
     * congestion-control reaction the derived events drive (a 10 us base RTT, DCQCN's 55 us rate
     * timer).
     */
    public static final long DEFAULT_REORDER_WINDOW_NS = 1_000_000L;
    /** Largest reorder window accepted, ns (1 s). */
    public static final long MAX_REORDER_WINDOW_NS = 1_000_000_000L;
    /**
     * Most captured bytes held for reordering at once (256 MiB); a capture denser than that within
     * the window is refused, naming the packet, rather than exhausting memory.
     */
    public static final long MAX_BUFFERED_BYTES = 256L << 20;
    /** Earliest timestamp accepted, ns since the epoch (1970-01-01T00:00:00Z). */
    public static final long MIN_TIMESTAMP_NS = 0L;
    /** First timestamp refused as absurd, ns since the epoch (2100-01-01T00:00:00Z). */
    public static final long END_TIMESTAMP_NS = 4_102_444_800L * 1_000_000_000L;

    private final boolean strict;
    private final long reorderWindowNs;
    /** Per interface of the current section: the packet number with the latest timestamp read (0: none yet). */
    private long[] latestNumbers = new long[4];
    /** Per interface of the current section: the latest timestamp read, ns. */
    private long[] latestNs = new long[4];
    private final ReorderBuffer held = new ReorderBuffer();
    private long sequence;
    private long handled;
    private int unsupportedLinkType;
    /** Whether the exception being thrown comes from decoding a released packet. */
    private boolean releaseFailed;
    private final RoceDecoder decoder = new RoceDecoder();
    private final RocePacket packet = new RocePacket();
    private final CaptureStats stats = new CaptureStats();

    /** Creates a strict decoder (cut headers and garbage fields throw) with the default reorder window. */
    public CaptureDecoder() {
        this(true);
    }

    /**
     * Creates a decoder with the {@link #DEFAULT_REORDER_WINDOW_NS default reorder window}.
     *
     * @param strict true to throw on cut headers and garbage fields, false to skip and count them
     */
    public CaptureDecoder(final boolean strict) {
        this(strict, DEFAULT_REORDER_WINDOW_NS);
    }

    /**
     * Creates a decoder.
     *
     * @param strict          true to throw on cut headers and garbage fields, false to skip and count them
     * @param reorderWindowNs how far back, ns, a packet's timestamp may be before the latest one read on
     *                        its interface and still be put in order; 0 .. {@link #MAX_REORDER_WINDOW_NS}
     *                        (0: any step back is refused or skipped)
     * @throws IllegalArgumentException if the window is out of range
     */
    public CaptureDecoder(final boolean strict, final long reorderWindowNs) {
        if (reorderWindowNs < 0 || reorderWindowNs > MAX_REORDER_WINDOW_NS) {
            throw new IllegalArgumentException("reorder window: expected 0.." + MAX_REORDER_WINDOW_NS + " ns, got "
                + reorderWindowNs);
        }
        this.strict = strict;
        this.reorderWindowNs = reorderWindowNs;
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
        held.clear();
        sequence = 0;
        handled = 0;
        unsupportedLinkType = -1;
        final String name = reader.name();
        if (reader.format() == CaptureReader.FORMAT_PCAP && !LinkTypes.isSupported(reader.fileLinkType())) {
            throw new CaptureException(name, 0, "link type " + LinkTypes.describe(reader.fileLinkType())
                + " is not supported (nicsim decodes 1 (Ethernet) and 197 (ERF))");
        }
        final RocePacket p = packet;
        int section = -1;
        releaseFailed = false;
        try {
            while (next(reader, p)) {
                if (reader.section() != section) { // a new pcapng section: new interfaces, maybe a new clock
                    releaseAll(name, handler);
                    section = reader.section();
                    Arrays.fill(latestNumbers, 0);
                }
                read(reader, name, handler);
            }
            releaseAll(name, handler);
        } catch (final CaptureException e) {
            if (releaseFailed) {
                throw e;
            }
            // the packets held come before the refused one: a problem in one of them comes first, and the
            // counts cover them all
            releaseAll(name, handler);
            throw e.withCounts(stats.summary());
        }
        if (handled == 0 && unsupportedLinkType >= 0 && stats.skipped(SkipReasons.UNSUPPORTED_LINK_TYPE) == stats.packets()) {
            throw new CaptureException(name, 0, "no packet on a supported link type: link type "
                + LinkTypes.describe(unsupportedLinkType) + " is not supported (nicsim decodes 1 (Ethernet) and 197 (ERF))",
                stats.summary());
        }
        return stats;
    }

    /** Checks the reader's current packet and files it for release in timestamp order. */
    private void read(final CaptureReader reader, final String name, final RocePacketHandler handler)
        throws CaptureException {
        final long number = reader.packetNumber();
        final int iface = reader.interfaceId();
        final int link = reader.linkType();
        final int cap = reader.capturedLength();
        final byte[] data = reader.data();
        final int offset = reader.dataOffset();
        if (!LinkTypes.isSupported(link)) { // only pcapng gets here: classic pcap was checked at the header
            if (strict) {
                throw new CaptureException(name, number, "interface " + iface + " has link type "
                    + LinkTypes.describe(link) + ", which nicsim does not decode (it decodes 1 (Ethernet) and 197 (ERF));"
                    + " --lenient skips and counts such packets", stats.summary());
            }
            unsupportedLinkType = link;
            skip(number, reader.timestampNs(), iface, SkipReasons.UNSUPPORTED_LINK_TYPE, null);
            return;
        }
        final long t = link == LinkTypes.ERF && cap >= 16 ? RoceDecoder.erfTimeNs(data, offset) : reader.timestampNs();
        if (t < MIN_TIMESTAMP_NS || t >= END_TIMESTAMP_NS) {
            final String problem = "absurd timestamp " + Instant.ofEpochSecond(Math.floorDiv(t, 1_000_000_000L),
                Math.floorMod(t, 1_000_000_000L)) + (t < MIN_TIMESTAMP_NS ? ", before 1970" : ", after 2100");
            refuseOrSkip(name, number, t, iface, problem);
            return;
        }
        if (iface >= latestNumbers.length) {
            latestNumbers = Arrays.copyOf(latestNumbers, Math.max(iface + 1, 2 * latestNumbers.length));
            latestNs = Arrays.copyOf(latestNs, latestNumbers.length);
        }
        final long latestNumber = latestNumbers[iface];
        final long latest = latestNs[iface];
        if (latestNumber > 0 && t < latest) {
            final long back = latest - t;
            if (back > reorderWindowNs) {
                refuseOrSkip(name, number, t, iface, "timestamp " + back + " ns before packet " + latestNumber
                    + "'s, beyond the reorder window of " + reorderWindowNs + " ns (--reorder-window-ns)");
                return;
            }
            stats.recordReordered(back, held.countLaterThan(iface, t));
        } else {
            latestNs[iface] = t;
            latestNumbers[iface] = number;
        }
        if (held.bufferedBytes() + cap > MAX_BUFFERED_BYTES) {
            throw new CaptureException(name, number, "more than " + MAX_BUFFERED_BYTES + " bytes of packets within the"
                + " reorder window of " + reorderWindowNs + " ns; a smaller --reorder-window-ns holds fewer", stats.summary());
        }
        held.add(iface, t, sequence++, number, link, data, offset, cap, reader.originalLength());
        final long releaseUpTo = latestNs[iface] - reorderWindowNs;
        for (int slot = held.peek(iface); slot >= 0 && held.timeNs(slot) <= releaseUpTo; slot = held.peek(iface)) {
            release(name, held.pop(iface), iface, handler);
        }
    }

    private void refuseOrSkip(final String name, final long number, final long timeNs, final int iface,
                              final String problem) throws CaptureException {
        if (strict) {
            throw new CaptureException(name, number, problem + "; --lenient skips and counts such packets",
                stats.summary());
        }
        skip(number, timeNs, iface, SkipReasons.BAD_TIMESTAMP, problem);
    }

    /** Counts a packet skipped before it reached the reorder buffer. */
    private void skip(final long number, final long timeNs, final int iface, final int reason, final String problem) {
        final RocePacket p = packet;
        p.clear();
        p.packetNumber = number;
        p.timeNs = timeNs;
        p.interfaceId = iface;
        p.skipReason = reason;
        p.problem = problem;
        stats.record(p);
    }

    /** Hands on everything held, interface by interface in timestamp order, first in the file first. */
    private void releaseAll(final String name, final RocePacketHandler handler) throws CaptureException {
        for (int slot = held.peekFlush(); slot >= 0; slot = held.peekFlush()) {
            final int iface = held.interfaceOf(slot);
            release(name, held.pop(iface), iface, handler);
        }
    }

    /** Decodes a released packet and hands it on (or counts it skipped). */
    private void release(final String name, final int slot, final int iface, final RocePacketHandler handler)
        throws CaptureException {
        final RocePacket p = packet;
        p.clear();
        p.packetNumber = held.number(slot);
        p.timeNs = held.timeNs(slot);
        p.interfaceId = iface;
        final int cap = held.capturedLength(slot);
        final int orig = held.originalLength(slot);
        if (strict && orig < cap) {
            releaseFailed = true;
            throw new CaptureException(name, p.packetNumber, "garbage in the record header: original length "
                + orig + " is less than the captured length " + cap, stats.summary());
        }
        final int kind = decoder.decode(held.linkType(slot), held.data(slot), 0, cap, orig, p);
        if (kind == RocePacket.KIND_SKIPPED) {
            final int reason = p.skipReason;
            if (strict && (reason == SkipReasons.CUT_BY_SNAPLEN || reason == SkipReasons.MALFORMED)) {
                releaseFailed = true;
                throw new CaptureException(name, p.packetNumber, p.problem, stats.summary());
            }
            stats.record(p);
        } else if (strict && p.kind == RocePacket.KIND_ROCE && p.icrcStatus == RocePacket.CRC_BAD) {
            p.kind = RocePacket.KIND_SKIPPED; // a corrupted packet derives no event
            p.skipReason = SkipReasons.BAD_ICRC;
            stats.record(p);
        } else {
            stats.record(p);
            handled++;
            handler.onPacket(p);
        }
    }
}
