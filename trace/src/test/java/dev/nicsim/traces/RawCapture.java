package dev.nicsim.traces;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Test helper, independent of {@link CaptureReader}: parses a little-endian classic pcap file
 * (microsecond magic, as the real captures, or nanosecond magic, as {@link PcapWriter} writes) into
 * its records and writes them back in other framings (big-endian, nanosecond, pcapng with
 * EPB / SPB / obsolete PB, either byte order, other timestamp resolutions), so the reader's format
 * handling can be checked against the same packets.
 */
final class RawCapture {
    /** One record: timestamp seconds and nanoseconds within the second, the captured bytes, the original length. */
    record Rec(long sec, long nsec, byte[] data, int origLen) {
        long timeNs() {
            return sec * 1_000_000_000L + nsec;
        }

        /** @return microseconds within the second (truncated) */
        long usec() {
            return nsec / 1_000L;
        }

        /** A record of a whole frame (original length = captured length) at a time in ns since the epoch. */
        static Rec at(final long timeNs, final byte[] data) {
            return new Rec(timeNs / 1_000_000_000L, timeNs % 1_000_000_000L, data, data.length);
        }
    }

    final int linkType;
    final int snapLength;
    final List<Rec> records;

    private RawCapture(final int linkType, final int snapLength, final List<Rec> records) {
        this.linkType = linkType;
        this.snapLength = snapLength;
        this.records = records;
    }

    /** Parses a little-endian classic pcap file, microsecond or nanosecond magic. */
    static RawCapture parse(final byte[] file) {
        final ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        final int magic = b.getInt(0);
        if (magic != 0xA1B2C3D4 && magic != 0xA1B23C4D) {
            throw new IllegalArgumentException("not a little-endian pcap");
        }
        final long fracToNs = magic == 0xA1B23C4D ? 1 : 1_000;
        final int snap = b.getInt(16);
        final int link = b.getInt(20);
        final List<Rec> recs = new ArrayList<>();
        int pos = 24;
        while (pos < file.length) {
            final long sec = b.getInt(pos) & 0xFFFF_FFFFL;
            final long nsec = (b.getInt(pos + 4) & 0xFFFF_FFFFL) * fracToNs;
            final int cap = b.getInt(pos + 8);
            final int orig = b.getInt(pos + 12);
            recs.add(new Rec(sec, nsec, Arrays.copyOfRange(file, pos + 16, pos + 16 + cap), orig));
            pos += 16 + cap;
        }
        return new RawCapture(link, snap, recs);
    }

    /** A copy keeping the records the predicate accepts. */
    RawCapture filter(final Predicate<Rec> keep) {
        final List<Rec> out = new ArrayList<>();
        for (final Rec r : records) {
            if (keep.test(r)) {
                out.add(r);
            }
        }
        return new RawCapture(linkType, snapLength, out);
    }

    /** A copy with one record replaced. */
    RawCapture with(final int index, final Rec rec) {
        final List<Rec> out = new ArrayList<>(records);
        out.set(index, rec);
        return new RawCapture(linkType, snapLength, out);
    }

    /** A copy with a record inserted before index {@code index} (0 .. size). */
    RawCapture insert(final int index, final Rec rec) {
        final List<Rec> out = new ArrayList<>(records);
        out.add(index, rec);
        return new RawCapture(linkType, snapLength, out);
    }

    /** A capture of the given records. */
    static RawCapture of(final int linkType, final int snapLength, final List<Rec> records) {
        return new RawCapture(linkType, snapLength, new ArrayList<>(records));
    }

    /** A copy with another link type in the header. */
    RawCapture withLinkType(final int newLinkType) {
        return new RawCapture(newLinkType, snapLength, records);
    }

    /** Classic pcap in the given byte order, microsecond (truncated) or nanosecond timestamps. */
    byte[] toPcap(final ByteOrder order, final boolean nanos) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteBuffer h = ByteBuffer.allocate(24).order(order);
        h.putInt(nanos ? 0xA1B23C4D : 0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
            .putInt(snapLength).putInt(linkType);
        out.writeBytes(h.array());
        for (final Rec r : records) {
            final ByteBuffer rh = ByteBuffer.allocate(16).order(order);
            rh.putInt((int) r.sec).putInt((int) (nanos ? r.nsec : r.usec())).putInt(r.data.length).putInt(r.origLen);
            out.writeBytes(rh.array());
            out.writeBytes(r.data);
        }
        return out.toByteArray();
    }

    /** How pcapng packet blocks are written. */
    enum Block { EPB, SPB, PB }

    /**
     * pcapng: one section, one interface with this capture's link type and the given if_tsresol
     * (-1 = option absent, i.e. microseconds), packets as the given block type; a name resolution
     * block and a custom block are inserted after the IDB to be skipped.
     */
    byte[] toPcapng(final ByteOrder order, final int tsresol, final Block block) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(shb(order));
        out.writeBytes(idb(order, linkType, snapLength, tsresol));
        out.writeBytes(block(order, 4, new byte[]{0, 0, 0, 0}));                 // NRB: nrb_record_end only
        out.writeBytes(block(order, 0x00000BAD, new byte[]{1, 2, 3, 4, 5, 6, 7, 8})); // custom block
        for (final Rec r : records) {
            out.writeBytes(packet(order, block, 0, units(r, tsresol), r));
        }
        return out.toByteArray();
    }

    /** Timestamp of a record in if_tsresol units (-1: absent = microseconds), truncated. */
    static long units(final Rec r, final int tsresol) {
        if (tsresol < 0) {
            return r.sec * 1_000_000L + r.usec();
        }
        if ((tsresol & 0x80) != 0) {
            final int exp = tsresol & 0x7F;
            return (r.sec << exp) + (r.nsec << exp) / 1_000_000_000L;
        }
        long u = r.sec;
        for (int i = 0; i < tsresol; i++) {
            u *= 10;
        }
        long frac = r.nsec;
        for (int i = 9; i < tsresol; i++) {
            frac *= 10;
        }
        for (int i = tsresol; i < 9; i++) {
            frac /= 10;
        }
        return u + frac;
    }

    static byte[] shb(final ByteOrder order) {
        final ByteBuffer body = ByteBuffer.allocate(16).order(order);
        body.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
        return block(order, 0x0A0D0D0A, body.array());
    }

    static byte[] idb(final ByteOrder order, final int linkType, final int snap, final int tsresol) {
        final ByteBuffer body = ByteBuffer.allocate(8 + (tsresol >= 0 ? 8 : 0) + 4).order(order);
        body.putShort((short) linkType).putShort((short) 0).putInt(snap);
        if (tsresol >= 0) {
            body.putShort((short) 9).putShort((short) 1).put((byte) tsresol).put(new byte[3]);
        }
        body.putShort((short) 0).putShort((short) 0); // opt_endofopt
        return block(order, 1, body.array());
    }

    static byte[] packet(final ByteOrder order, final Block block, final int ifId, final long units, final Rec r) {
        final int padded = (r.data.length + 3) & ~3;
        switch (block) {
            case SPB -> {
                final ByteBuffer body = ByteBuffer.allocate(4 + padded).order(order);
                body.putInt(r.origLen).put(r.data);
                return block(order, 3, body.array());
            }
            case PB -> {
                final ByteBuffer body = ByteBuffer.allocate(20 + padded).order(order);
                body.putShort((short) ifId).putShort((short) 0).putInt((int) (units >>> 32)).putInt((int) units)
                    .putInt(r.data.length).putInt(r.origLen).put(r.data);
                return block(order, 2, body.array());
            }
            default -> {
                final ByteBuffer body = ByteBuffer.allocate(20 + padded).order(order);
                body.putInt(ifId).putInt((int) (units >>> 32)).putInt((int) units).putInt(r.data.length)
                    .putInt(r.origLen).put(r.data);
                return block(order, 6, body.array());
            }
        }
    }

    static byte[] block(final ByteOrder order, final int type, final byte[] body) {
        final int len = 12 + body.length;
        final ByteBuffer b = ByteBuffer.allocate(len).order(order);
        b.putInt(type).putInt(len).put(body).putInt(len);
        return b.array();
    }
}
