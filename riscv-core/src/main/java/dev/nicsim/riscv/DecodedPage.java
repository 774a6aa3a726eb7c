package dev.nicsim.riscv;

import java.util.Arrays;

/**
 * The decoded-instruction cache of one 4 KiB page of a {@link MemoryRegion}: one packed
 * {@link Isa} decode per 2-byte slot (instructions may start at any even address with the C
 * extension), filled on first execution and cleared slot by slot when a store touches the
 * instruction's bytes, or wholesale by {@code fence.i}. A page may also be "watched" (it holds
 * {@code tohost}): stores to it reach the store hook even when nothing on it is decoded.
 *
 * <p>Thread-safety: not thread-safe; owned by the harts of one core (one thread).
 */
final class DecodedPage {
    /** Page size in bytes. */
    static final int PAGE_BYTES = 4096;
    /** Returned by {@link #decode} when the instruction's bytes lie outside the region. */
    static final long FETCH_FAULT = -1L;

    final long base;
    final MemoryRegion region;
    final int regionOffset;
    final long[] decoded = new long[PAGE_BYTES / 2];
    boolean watched;
    /**
     * Translated blocks by start slot ({@link BlockTranslator}), or null before the first; dropped
     * whole with any decoded slot of the page (a store to its bytes, {@code fence.i}).
     */
    TranslatedBlock[] blocks;
    /** Bit per slot: the slot's bytes belong to an instruction of some translated block. */
    final long[] translated = new long[PAGE_BYTES / 2 / 64];

    DecodedPage(final MemoryRegion region, final int regionOffset) {
        this.region = region;
        this.regionOffset = regionOffset;
        this.base = region.base + regionOffset;
    }

    /**
     * Decodes the instruction at a slot and caches it.
     *
     * @param slot 0 to 2047
     * @param xlen 32 or 64
     * @return the packed decode, or {@link #FETCH_FAULT}
     */
    long decode(final int slot, final int xlen) {
        final long o = regionOffset + 2L * slot;
        final MemoryRegion r = region;
        if (o + 2 > r.sizeBytes) {
            return FETCH_FAULT;
        }
        final int lo = r.bytes[(int) o] & 0xff | (r.bytes[(int) o + 1] & 0xff) << 8;
        final long d;
        if (Isa.isCompressed(lo)) {
            d = Isa.decode(lo, xlen);
        } else {
            if (o + 4 > r.sizeBytes) {
                return FETCH_FAULT;
            }
            d = Isa.decode(lo | (r.bytes[(int) o + 2] & 0xff) << 16 | (r.bytes[(int) o + 3] & 0xff) << 24, xlen);
        }
        decoded[slot] = d;
        return d;
    }

    /** Drops every translated block of the page. */
    void clearBlocks() {
        blocks = null;
        Arrays.fill(translated, 0L);
    }

    /**
     * Marks slots as holding translated instruction bytes.
     *
     * @param from first slot
     * @param to   slot after the last, at most 2048
     */
    void markTranslated(final int from, final int to) {
        for (int s = from; s < to; s++) {
            translated[s >>> 6] |= 1L << s;
        }
    }

    void clear() {
        Arrays.fill(decoded, 0L);
        clearBlocks();
    }
}
