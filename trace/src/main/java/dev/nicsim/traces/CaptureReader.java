package dev.nicsim.traces;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Frames the packet records of a pcap or pcapng capture; nicsim's own lean reader (no native code,
 * no dependency). Pull style: {@link #next()} advances to the next packet and the accessors
 * describe it; the packet bytes are {@code data()[dataOffset() .. dataOffset()+capturedLength())}.
 *
 * <h2>Formats</h2>
 * <ul>
 *   <li>pcap (draft-ietf-opsawg-pcap §4, §5): magic {@code 0xA1B2C3D4} (microseconds) or
 *       {@code 0xA1B23C4D} (nanoseconds), written in either byte order; version 2.x; the link type
 *       is the low 16 bits of the header's LinkType field.</li>
 *   <li>pcapng (draft-ietf-opsawg-pcapng §4): Section Header Blocks in either byte order (several
 *       sections per file allowed; each resets the interfaces), Interface Description Blocks with
 *       their link type, snap length and {@code if_tsresol} (option 9, power of 10 or of 2) and
 *       {@code if_tsoffset} (option 14, seconds), Enhanced Packet Blocks, Simple Packet Blocks
 *       (interface 0, no timestamp: the previous packet's time is used) and the obsolete Packet
 *       Block. Other blocks (name resolution, statistics, custom, ...) are skipped.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Anything that breaks the framing throws {@link CaptureException} with the file name and the
 * 1-based number of the packet record at fault: wrong magic, a file that ends inside a header or
 * record (truncated file), a record longer than {@link #MAX_PACKET_BYTES} or a block longer than
 * {@link #MAX_BLOCK_BYTES}, block lengths that are not multiples of 4 or whose trailing copy
 * differs, an EPB naming an undescribed interface, a timestamp out of range, an I/O error. Every
 * record consumes at least 12 bytes, so reading always terminates; buffers never grow beyond the
 * largest record (bounded by the limits above and by the file size).
 *
 * <p>Allocation: none per packet in steady state (the record buffer grows to the largest record).
 * Thread-safety: not thread-safe; one reader per thread.
 */
public final class CaptureReader implements AutoCloseable {
    /** Format code: classic pcap. */
    public static final int FORMAT_PCAP = 1;
    /** Format code: pcapng. */
    public static final int FORMAT_PCAPNG = 2;
    /** Largest captured length of one packet accepted, bytes (libpcap's maximum snap length). */
    public static final int MAX_PACKET_BYTES = 262_144;
    /** Largest pcapng block accepted, bytes (16 MiB). */
    public static final int MAX_BLOCK_BYTES = 16 * 1024 * 1024;

    private static final int PCAP_HEADER_BYTES = 24;
    private static final int PCAP_RECORD_HEADER_BYTES = 16;
    private static final int BLOCK_SHB = 0x0A0D0D0A;
    private static final int BLOCK_IDB = 1;
    private static final int BLOCK_PB = 2;
    private static final int BLOCK_SPB = 3;
    private static final int BLOCK_EPB = 6;
    private static final int BOM = 0x1A2B3C4D;

    private final String name;
    private final InputStream in;
    private final long size;
    private long position;
    private byte[] buf = new byte[4096];
    private int format;
    private boolean bigEndian;
    private boolean firstBlockPending;
    private boolean lastRecordCut;

    // pcap
    private boolean pcapNanos;
    private int pcapLinkType;

    // pcapng
    private int sections;
    private final PcapngInterfaces interfaces = new PcapngInterfaces();

    // current packet
    private long packetNumber;
    private int dataOffset;
    private int capturedLength;
    private int originalLength;
    private int linkType;
    private int interfaceId;
    private long timestampNs;

    private CaptureReader(final String name, final InputStream in, final long size) {
        this.name = name;
        this.in = in;
        this.size = size;
    }

    /**
     * Opens a capture file and reads its header.
     *
     * @param file the pcap or pcapng file
     * @return a reader positioned before the first packet
     * @throws CaptureException if the file cannot be read, is empty or truncated in its header, or
     *                          its magic is neither pcap nor pcapng
     */
    public static CaptureReader open(final Path file) throws CaptureException {
        final String name = file.toString();
        final InputStream in;
        final long size;
        try {
            size = Files.size(file);
            in = Files.newInputStream(file);
        } catch (final NoSuchFileException e) {
            throw new CaptureException(name, 0, "no such file");
        } catch (final AccessDeniedException e) {
            throw new CaptureException(name, 0, "permission denied");
        } catch (final IOException e) {
            throw new CaptureException(name, 0, "cannot read: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        final CaptureReader r = new CaptureReader(name, new BufferedInputStream(in, 65_536), size);
        try {
            r.readFileHeader();
        } catch (final CaptureException e) {
            r.close();
            throw e;
        }
        return r;
    }

    /**
     * Opens a capture held in memory (tests, fuzzing, data already loaded).
     *
     * @param name a label used in error messages in place of a file name
     * @param data the capture bytes; not copied, must not change while the reader is used
     * @return a reader positioned before the first packet
     * @throws CaptureException as {@link #open(Path)}
     */
    public static CaptureReader open(final String name, final byte[] data) throws CaptureException {
        final CaptureReader r = new CaptureReader(name, new ByteArrayInputStream(data), data.length);
        r.readFileHeader();
        return r;
    }

    private void readFileHeader() throws CaptureException {
        if (size == 0) {
            throw new CaptureException(name, 0, "empty file (not a pcap or pcapng capture)");
        }
        if (size < 4) {
            throw new CaptureException(name, 0, "truncated file: " + size + " bytes, too short for a capture header");
        }
        readFully(0, 4, 0, "file magic");
        final int magicLe = Bytes.i32le(buf, 0);
        switch (magicLe) {
            case 0xA1B2C3D4 -> startPcap(false, false);
            case 0xA1B23C4D -> startPcap(false, true);
            case 0xD4C3B2A1 -> startPcap(true, false);
            case 0x4D3CB2A1 -> startPcap(true, true);
            case BLOCK_SHB -> {
                format = FORMAT_PCAPNG; // the rest of the SHB is read by the first next()
                firstBlockPending = true;
            }
            default -> throw new CaptureException(name, 0, String.format(
                "wrong magic %02x %02x %02x %02x: not a pcap (a1 b2 c3 d4 / a1 b2 3c 4d) or pcapng (0a 0d 0d 0a) file",
                buf[0] & 0xFF, buf[1] & 0xFF, buf[2] & 0xFF, buf[3] & 0xFF));
        }
    }

    private void startPcap(final boolean be, final boolean nanos) throws CaptureException {
        format = FORMAT_PCAP;
        bigEndian = be;
        pcapNanos = nanos;
        if (size < PCAP_HEADER_BYTES) {
            throw new CaptureException(name, 0, "truncated file: pcap header needs 24 bytes, the file has " + size);
        }
        readFully(4, PCAP_HEADER_BYTES - 4, 0, "pcap header");
        final int major = Bytes.u16(buf, 4, be);
        final int minor = Bytes.u16(buf, 6, be);
        if (major != 2) {
            throw new CaptureException(name, 0, "garbage in the pcap header: version " + major + "." + minor
                + " (expected 2.x)");
        }
        pcapLinkType = Bytes.i32(buf, 20, be) & 0xFFFF;
    }

    /** @return the capture's name (file path or in-memory label) as used in messages */
    public String name() {
        return name;
    }

    /** @return {@link #FORMAT_PCAP} or {@link #FORMAT_PCAPNG} */
    public int format() {
        return format;
    }

    /**
     * The link type of a classic pcap file (pcapng files carry one per interface; see
     * {@link #linkType()} for the current packet's).
     *
     * @return link type, 0..65535; -1 for pcapng
     */
    public int fileLinkType() {
        return format == FORMAT_PCAP ? pcapLinkType : -1;
    }

    /**
     * Advances to the next packet.
     *
     * @return true if a packet is available, false at the clean end of the file
     * @throws CaptureException if the framing is broken (see the class comment)
     */
    public boolean next() throws CaptureException {
        return format == FORMAT_PCAP ? nextPcap() : nextPcapng();
    }

    /**
     * Whether the last {@link #next} threw because the file ends inside a record or block (a
     * capture stopped mid-write): the packets before it were whole.
     *
     * @return true after such a failure
     */
    public boolean lastRecordCut() {
        return lastRecordCut;
    }

    /**
     * The number of pcapng sections begun so far (a new section starts a new set of interfaces and
     * may start a new clock); 0 for classic pcap.
     *
     * @return sections read, 0..
     */
    public int section() {
        return sections;
    }

    private CaptureException truncated(final long number, final String problem) {
        lastRecordCut = true;
        return new CaptureException(name, number, problem);
    }

    private boolean nextPcap() throws CaptureException {
        if (position == size) {
            return false;
        }
        final long number = packetNumber + 1;
        final long left = size - position;
        if (left < PCAP_RECORD_HEADER_BYTES) {
            throw truncated(number, "truncated file: packet record header needs 16 bytes, "
                + left + " left");
        }
        readFully(0, PCAP_RECORD_HEADER_BYTES, number, "packet record header");
        final long sec = Bytes.i32(buf, 0, bigEndian) & 0xFFFF_FFFFL;
        final long frac = Bytes.i32(buf, 4, bigEndian) & 0xFFFF_FFFFL;
        final long cap = Bytes.i32(buf, 8, bigEndian) & 0xFFFF_FFFFL;
        final long orig = Bytes.i32(buf, 12, bigEndian) & 0xFFFF_FFFFL;
        if (frac >= (pcapNanos ? 1_000_000_000L : 1_000_000L)) {
            throw new CaptureException(name, number, "garbage in the record header: timestamp fraction " + frac
                + (pcapNanos ? " ns >= 1 s" : " us >= 1 s"));
        }
        if (cap > MAX_PACKET_BYTES) {
            throw new CaptureException(name, number, "garbage in the record header: captured length " + cap
                + " exceeds the " + MAX_PACKET_BYTES + "-byte limit");
        }
        if (size - position < cap) {
            throw truncated(number, "truncated file: packet record needs " + cap + " bytes, "
                + (size - position) + " left");
        }
        readFully(0, (int) cap, number, "packet data");
        packetNumber = number;
        dataOffset = 0;
        capturedLength = (int) cap;
        originalLength = (int) Math.min(orig, Integer.MAX_VALUE);
        linkType = pcapLinkType;
        interfaceId = 0;
        timestampNs = sec * 1_000_000_000L + (pcapNanos ? frac : frac * 1_000L);
        return true;
    }

    private boolean nextPcapng() throws CaptureException {
        while (true) {
            if (position == size) {
                return false;
            }
            final long number = packetNumber + 1;
            // the first block's first 4 bytes (the magic) were read by readFileHeader
            final int have = firstBlockPending ? 4 : 0;
            firstBlockPending = false;
            final long blockStart = position - have;
            final long left = size - blockStart;
            if (left < 8) {
                throw truncated(number, "truncated file: block header needs 8 bytes, " + left
                    + " left at offset " + blockStart);
            }
            readFully(have, 8 - have, number, "block header");
            int type = Bytes.i32(buf, 0, bigEndian);
            if (type == BLOCK_SHB) {
                if (left < 12) {
                    throw truncated(number, "truncated file: section header needs 12 bytes, "
                        + left + " left at offset " + blockStart);
                }
                readFully(8, 4, number, "section header");
                final int bomLe = Bytes.i32le(buf, 8);
                if (bomLe == BOM) {
                    bigEndian = false;
                } else if (bomLe == Integer.reverseBytes(BOM)) {
                    bigEndian = true;
                } else {
                    throw new CaptureException(name, number, String.format("garbage in the section header at offset %d:"
                        + " byte-order magic %08x is neither 1a2b3c4d nor 4d3c2b1a", blockStart, bomLe));
                }
                type = BLOCK_SHB;
            }
            final long len = Bytes.i32(buf, 4, bigEndian) & 0xFFFF_FFFFL;
            final int minLen = type == BLOCK_SHB ? 28 : 12;
            if (len < minLen || (len & 3) != 0) {
                throw new CaptureException(name, number, "garbage in the block at offset " + blockStart + ": total length "
                    + len + " is " + (len < minLen ? "less than " + minLen : "not a multiple of 4"));
            }
            if (len > MAX_BLOCK_BYTES) {
                throw new CaptureException(name, number, "garbage in the block at offset " + blockStart + ": total length "
                    + len + " exceeds the " + MAX_BLOCK_BYTES + "-byte limit");
            }
            if (len > left) {
                throw truncated(number, "truncated file: block of type " + blockTypeName(type)
                    + " at offset " + blockStart + " needs " + len + " bytes, " + left + " left");
            }
            final int length = (int) len;
            final int already = type == BLOCK_SHB ? 12 : 8;
            readFully(already, length - already, number, "block body");
            final long trailing = Bytes.i32(buf, length - 4, bigEndian) & 0xFFFF_FFFFL;
            if (trailing != len) {
                throw new CaptureException(name, number, "garbage in the block at offset " + blockStart
                    + ": trailing total length " + trailing + " differs from the leading " + len);
            }
            switch (type) {
                case BLOCK_SHB -> onSectionHeader(number, blockStart, length);
                case BLOCK_IDB -> interfaces.describe(name, number, blockStart, buf, length, bigEndian);
                case BLOCK_EPB -> {
                    onTimedPacket(number, blockStart, length, "enhanced packet block", false);
                    return true;
                }
                case BLOCK_SPB -> {
                    onSimplePacket(number, blockStart, length);
                    return true;
                }
                case BLOCK_PB -> {
                    onTimedPacket(number, blockStart, length, "packet block", true);
                    return true;
                }
                default -> {
                    // name resolution, interface statistics, decryption secrets, custom: not needed
                }
            }
        }
    }

    private void onSectionHeader(final long number, final long at, final int length) throws CaptureException {
        final int major = Bytes.u16(buf, 12, bigEndian);
        final int minor = Bytes.u16(buf, 14, bigEndian);
        if (major != 1) {
            throw new CaptureException(name, number, "garbage in the section header at offset " + at + ": version "
                + major + "." + minor + " (expected 1.x)");
        }
        interfaces.clear();
        sections++;
    }

    /**
     * An Enhanced Packet Block (32-bit interface id) or the obsolete Packet Block (16-bit interface
     * id, then 16 bits of drops count): the rest of their layout is the same.
     */
    private void onTimedPacket(final long number, final long at, final int length, final String block,
                               final boolean obsolete) throws CaptureException {
        if (length < 32) {
            throw new CaptureException(name, number, "garbage in the " + block + " at offset " + at
                + ": total length " + length + " is less than 32");
        }
        final long ifId = obsolete ? Bytes.u16(buf, 8, bigEndian) : Bytes.i32(buf, 8, bigEndian) & 0xFFFF_FFFFL;
        final long high = Bytes.i32(buf, 12, bigEndian) & 0xFFFF_FFFFL;
        final long low = Bytes.i32(buf, 16, bigEndian) & 0xFFFF_FFFFL;
        final long cap = Bytes.i32(buf, 20, bigEndian) & 0xFFFF_FFFFL;
        final long orig = Bytes.i32(buf, 24, bigEndian) & 0xFFFF_FFFFL;
        setPacket(number, at, block, ifId, high << 32 | low, true, cap, orig, 28, length - 32);
    }

    private void onSimplePacket(final long number, final long at, final int length) throws CaptureException {
        if (length < 16) {
            throw new CaptureException(name, number, "garbage in the simple packet block at offset " + at
                + ": total length " + length + " is less than 16");
        }
        if (interfaces.count() == 0) {
            throw new CaptureException(name, number, "garbage: simple packet block at offset " + at
                + " comes before any interface description block");
        }
        final long orig = Bytes.i32(buf, 8, bigEndian) & 0xFFFF_FFFFL;
        long cap = Math.min(orig, length - 16);
        final long snap = interfaces.snapLength(0) & 0xFFFF_FFFFL;
        if (snap != 0) {
            cap = Math.min(cap, snap);
        }
        setPacket(number, at, "simple packet block", 0, 0, false, cap, orig, 12, length - 16);
    }

    private void setPacket(final long number, final long at, final String block, final long ifId, final long units,
                           final boolean hasTime, final long cap, final long orig, final int offset, final int room)
        throws CaptureException {
        final int described = interfaces.count();
        if (ifId >= described) {
            throw new CaptureException(name, number, "garbage in the " + block + " at offset " + at + ": interface "
                + ifId + " is not described (" + described + " interface description block"
                + (described == 1 ? "" : "s") + " in this section)");
        }
        if (cap > room) {
            throw new CaptureException(name, number, "garbage in the " + block + " at offset " + at
                + ": captured length " + cap + " exceeds the block's " + room + " data bytes");
        }
        final int iface = (int) ifId;
        if (hasTime) {
            final long ns = interfaces.timestampNs(iface, units);
            if (ns == Long.MIN_VALUE) {
                throw new CaptureException(name, number, "garbage in the " + block + " at offset " + at
                    + ": timestamp " + Long.toUnsignedString(units) + " (if_tsresol " + interfaces.tsResol(iface)
                    + ", if_tsoffset " + interfaces.tsOffsetSec(iface) + " s) is out of range");
            }
            timestampNs = ns;
        }
        packetNumber = number;
        interfaceId = iface;
        linkType = interfaces.linkType(iface);
        dataOffset = offset;
        capturedLength = (int) cap;
        originalLength = (int) Math.min(orig, Integer.MAX_VALUE);
    }

    private static String blockTypeName(final int type) {
        return switch (type) {
            case BLOCK_SHB -> "section header";
            case BLOCK_IDB -> "interface description";
            case BLOCK_EPB -> "enhanced packet";
            case BLOCK_SPB -> "simple packet";
            case BLOCK_PB -> "packet";
            default -> String.format("0x%08x", type);
        };
    }

    private void readFully(final int off, final int len, final long number, final String what) throws CaptureException {
        if (buf.length < off + len) {
            int n = buf.length;
            while (n < off + len) {
                n *= 2;
            }
            buf = Arrays.copyOf(buf, n);
        }
        final int got;
        try {
            got = in.readNBytes(buf, off, len);
        } catch (final IOException e) {
            throw new CaptureException(name, number, "I/O error reading the " + what + ": "
                + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        position += got;
        if (got != len) {
            throw truncated(number, "truncated file: the " + what + " needs " + len + " bytes, "
                + got + " left");
        }
    }

    /** @return the current packet's 1-based number (pcap record or pcapng packet block ordinal) */
    public long packetNumber() {
        return packetNumber;
    }

    /**
     * The buffer holding the current packet; may be replaced by a larger one on {@link #next()}.
     *
     * @return the record buffer; packet bytes start at {@link #dataOffset()}
     */
    public byte[] data() {
        return buf;
    }

    /** @return offset of the current packet's first byte in {@link #data()} */
    public int dataOffset() {
        return dataOffset;
    }

    /** @return bytes of the current packet present in the capture (after the snap length cut) */
    public int capturedLength() {
        return capturedLength;
    }

    /** @return bytes the packet had on the wire (may exceed {@link #capturedLength()}); clamped to int */
    public int originalLength() {
        return originalLength;
    }

    /** @return link type of the current packet (the file's for pcap, its interface's for pcapng) */
    public int linkType() {
        return linkType;
    }

    /** @return pcapng interface id of the current packet; 0 for pcap */
    public int interfaceId() {
        return interfaceId;
    }

    /** @return the current packet's timestamp, nanoseconds since the Unix epoch */
    public long timestampNs() {
        return timestampNs;
    }

    /** Closes the underlying stream; never throws. */
    @Override
    public void close() {
        try {
            in.close();
        } catch (final IOException ignored) {
            // nothing useful to do for a read-only stream
        }
    }
}
