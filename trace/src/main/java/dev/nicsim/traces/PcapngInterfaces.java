package dev.nicsim.traces;

import java.util.Arrays;

/**
 * The interfaces of the current pcapng section, as their Interface Description Blocks describe them
 * (draft-ietf-opsawg-pcapng §4.2): link type, snap length, timestamp resolution ({@code if_tsresol},
 * option 9, a power of 10 or of 2; 10^-6 s when absent) and timestamp offset ({@code if_tsoffset},
 * option 14, seconds), numbered in block order from 0. A new Section Header Block
 * {@link #clear() clears} them. {@link #timestampNs} turns a packet's 64-bit timestamp into
 * nanoseconds with its interface's resolution and offset.
 *
 * <p>Allocation: none while the number of interfaces per section does not exceed the peak (the
 * tables double when it does). Thread-safety: not thread-safe; owned by one {@link CaptureReader}.
 */
final class PcapngInterfaces {
    private static final int TSRESOL_MICROS = 6;
    private static final long[] POW10 = {
        1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
        10_000_000_000L};

    private int count;
    private int[] linkType = new int[4];
    private int[] snapLength = new int[4];
    private int[] tsResol = new int[4];
    private long[] tsOffsetSec = new long[4];

    /** Forgets every interface (a new section begins). */
    void clear() {
        count = 0;
    }

    /** @return interfaces described in this section */
    int count() {
        return count;
    }

    /** @return link type of interface i, 0..65535 */
    int linkType(final int i) {
        return linkType[i];
    }

    /** @return snap length of interface i as stored (unsigned; 0 = no limit) */
    int snapLength(final int i) {
        return snapLength[i];
    }

    /** @return {@code if_tsresol} of interface i */
    int tsResol(final int i) {
        return tsResol[i];
    }

    /** @return {@code if_tsoffset} of interface i, s */
    long tsOffsetSec(final int i) {
        return tsOffsetSec[i];
    }

    /**
     * Adds the interface an Interface Description Block describes.
     *
     * @param name      the capture's name, for messages
     * @param number    1-based number of the packet record being read, for messages
     * @param at        the block's file offset, for messages
     * @param buf       the whole block, from its type field
     * @param length    the block's total length, bytes, at least 12
     * @param bigEndian the section's byte order
     * @throws CaptureException if the block is shorter than 20 bytes, an option overruns it, or
     *                          {@code if_tsresol} is out of range (10^-19 and finer, 2^-64 and finer)
     */
    void describe(final String name, final long number, final long at, final byte[] buf, final int length,
                  final boolean bigEndian) throws CaptureException {
        if (length < 20) {
            throw new CaptureException(name, number, "garbage in the interface description block at offset " + at
                + ": total length " + length + " is less than 20");
        }
        if (count == linkType.length) {
            final int n = count * 2;
            linkType = Arrays.copyOf(linkType, n);
            snapLength = Arrays.copyOf(snapLength, n);
            tsResol = Arrays.copyOf(tsResol, n);
            tsOffsetSec = Arrays.copyOf(tsOffsetSec, n);
        }
        final int i = count;
        linkType[i] = Bytes.u16(buf, 8, bigEndian);
        snapLength[i] = Bytes.i32(buf, 12, bigEndian);
        tsResol[i] = TSRESOL_MICROS;
        tsOffsetSec[i] = 0;
        final int end = length - 4;
        int p = 16;
        while (p + 4 <= end) {
            final int code = Bytes.u16(buf, p, bigEndian);
            final int optLen = Bytes.u16(buf, p + 2, bigEndian);
            if (code == 0) {
                break; // opt_endofopt
            }
            if (p + 4 + optLen > end) {
                throw new CaptureException(name, number, "garbage in the interface description block at offset " + at
                    + ": option " + code + " of length " + optLen + " overruns the block");
            }
            if (code == 9 && optLen >= 1) {
                final int v = buf[p + 4] & 0xFF;
                final boolean pow2 = (v & 0x80) != 0;
                final int exp = v & 0x7F;
                if (pow2 ? exp > 63 : exp > 18) {
                    throw new CaptureException(name, number, "garbage in the interface description block at offset " + at
                        + ": if_tsresol " + v + " is out of range");
                }
                tsResol[i] = v;
            } else if (code == 14 && optLen >= 8) {
                tsOffsetSec[i] = bigEndian ? Bytes.i64be(buf, p + 4) : Bytes.i64le(buf, p + 4);
            }
            p += 4 + ((optLen + 3) & ~3);
        }
        count++;
    }

    /**
     * A packet timestamp of interface i in nanoseconds since the epoch.
     *
     * @param i     interface, 0..{@link #count()}-1
     * @param units the 64-bit timestamp, unsigned
     * @return ns, or {@link Long#MIN_VALUE} when out of the long range
     */
    long timestampNs(final int i, final long units) {
        return unitsToNs(units, tsResol[i], tsOffsetSec[i]);
    }

    /**
     * Converts a pcapng timestamp to nanoseconds since the epoch.
     *
     * @param units     the 64-bit timestamp, unsigned
     * @param tsresol   if_tsresol: bit 7 clear = 10^-n s, set = 2^-n s
     * @param offsetSec if_tsoffset, seconds
     * @return ns, or {@link Long#MIN_VALUE} when out of the long range
     */
    private static long unitsToNs(final long units, final int tsresol, final long offsetSec) {
        final int exp = tsresol & 0x7F;
        long ns;
        if ((tsresol & 0x80) != 0) {
            // 2^-exp seconds per unit: whole seconds and the fraction in 0.64 fixed point
            final long secs = exp == 64 ? 0 : units >>> exp;
            final long fracBits = exp == 0 ? 0 : units << (64 - exp);
            if (secs < 0 || secs > Long.MAX_VALUE / 1_000_000_000L) {
                return Long.MIN_VALUE;
            }
            // unsigned high 64 bits of fracBits x 1e9
            final long fracNs = Math.multiplyHigh(fracBits, 1_000_000_000L) + (fracBits < 0 ? 1_000_000_000L : 0);
            ns = secs * 1_000_000_000L + fracNs;
        } else if (exp <= 9) {
            final long mul = POW10[9 - exp];
            if (units < 0 || units > Long.MAX_VALUE / mul) {
                return Long.MIN_VALUE;
            }
            ns = units * mul;
        } else {
            ns = Long.divideUnsigned(units, POW10[exp - 9]);
        }
        if (offsetSec != 0) {
            if (Math.abs(offsetSec) > Long.MAX_VALUE / 1_000_000_000L) {
                return Long.MIN_VALUE;
            }
            final long sum = ns + offsetSec * 1_000_000_000L;
            if (((ns ^ sum) & (offsetSec ^ sum)) < 0) {
                return Long.MIN_VALUE;
            }
            ns = sum;
        }
        return ns == Long.MIN_VALUE ? Long.MIN_VALUE + 1 : ns;
    }
}
