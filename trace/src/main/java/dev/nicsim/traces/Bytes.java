package dev.nicsim.traces;

/**
 * Big- and little-endian field access on byte arrays. Callers check bounds first. Thread-safety:
 * pure functions.
 */
final class Bytes {
    private Bytes() {
    }

    static int u8(final byte[] b, final int i) {
        return b[i] & 0xFF;
    }

    static int u16be(final byte[] b, final int i) {
        return (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    static int u24be(final byte[] b, final int i) {
        return (b[i] & 0xFF) << 16 | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF);
    }

    static int i32be(final byte[] b, final int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }

    static long u32be(final byte[] b, final int i) {
        return i32be(b, i) & 0xFFFF_FFFFL;
    }

    static long u48be(final byte[] b, final int i) {
        return (long) u16be(b, i) << 32 | u32be(b, i + 2);
    }

    static long i64be(final byte[] b, final int i) {
        return (long) i32be(b, i) << 32 | u32be(b, i + 4);
    }

    static int u16le(final byte[] b, final int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8;
    }

    static int i32le(final byte[] b, final int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    }

    static long i64le(final byte[] b, final int i) {
        return (i32le(b, i) & 0xFFFF_FFFFL) | (long) i32le(b, i + 4) << 32;
    }

    static int u16(final byte[] b, final int i, final boolean bigEndian) {
        return bigEndian ? u16be(b, i) : u16le(b, i);
    }

    static int i32(final byte[] b, final int i, final boolean bigEndian) {
        return bigEndian ? i32be(b, i) : i32le(b, i);
    }

    static void put16be(final byte[] b, final int i, final int v) {
        b[i] = (byte) (v >>> 8);
        b[i + 1] = (byte) v;
    }

    static void put24be(final byte[] b, final int i, final int v) {
        b[i] = (byte) (v >>> 16);
        b[i + 1] = (byte) (v >>> 8);
        b[i + 2] = (byte) v;
    }

    static void put32be(final byte[] b, final int i, final int v) {
        b[i] = (byte) (v >>> 24);
        b[i + 1] = (byte) (v >>> 16);
        b[i + 2] = (byte) (v >>> 8);
        b[i + 3] = (byte) v;
    }

    static void put48be(final byte[] b, final int i, final long v) {
        put16be(b, i, (int) (v >>> 32));
        put32be(b, i + 2, (int) v);
    }

    static void put64be(final byte[] b, final int i, final long v) {
        put32be(b, i, (int) (v >>> 32));
        put32be(b, i + 4, (int) v);
    }

    static void put16le(final byte[] b, final int i, final int v) {
        b[i] = (byte) v;
        b[i + 1] = (byte) (v >>> 8);
    }

    static void put32le(final byte[] b, final int i, final int v) {
        b[i] = (byte) v;
        b[i + 1] = (byte) (v >>> 8);
        b[i + 2] = (byte) (v >>> 16);
        b[i + 3] = (byte) (v >>> 24);
    }
}
