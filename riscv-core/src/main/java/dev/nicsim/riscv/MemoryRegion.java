package dev.nicsim.riscv;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * One contiguous block of emulated memory: bytes, a base address, and what an access costs
 * beyond the cycle model's load latency (a fixed number of cycles, or a {@link RegionLatency}
 * callback asked per access). Little-endian; misaligned accesses inside the region are served
 * (as Ibex does in hardware; the riscv-tests {@code ma_data} test requires it).
 *
 * <p>Machine mode without PMP has no memory permissions (Volume II §3.7), so every region is
 * readable, writable and executable.
 *
 * <p>Thread-safety: not thread-safe; owned by the harts of one core (one thread).
 */
public final class MemoryRegion {
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    final String name;
    final long base;
    final long sizeBytes;
    final byte[] bytes;
    final int latencyCycles;
    final RegionLatency latency;
    final DecodedPage[] pages;
    /**
     * Largest offset at which an 8-byte access fits and no extra latency applies: the fast path
     * of loads and stores; -1 for regions with latency, so every access takes the slow path.
     */
    final long fastLast8;
    final long fastLast4;
    final long fastLast2;
    final long fastLast1;
    /**
     * The cache hierarchy that times this region's loads when the region's latency is exactly a
     * {@link MemoryHierarchy} (no fixed extra cycles), else null: the hart then reads the bytes
     * directly and checks the issuing thread's last L1D line inline, calling the hierarchy only
     * when the line differs ({@link #cachedLast8}).
     */
    final MemoryHierarchy hierarchy;
    /** As {@link #fastLast8}, for regions timed by {@link #hierarchy}; -1 for every other region. */
    final long cachedLast8;
    /**
     * Largest offset at which a 1-byte store fits and the region charges no store latency
     * directly (flat and hierarchy regions; stores to a hierarchy region neither stall nor
     * allocate); -1 for regions with a fixed latency or another callback.
     */
    final long storeLast1;

    MemoryRegion(final String name, final long base, final long sizeBytes, final int latencyCycles, final RegionLatency latency) {
        this.name = name;
        this.base = base;
        this.sizeBytes = sizeBytes;
        this.bytes = new byte[(int) sizeBytes];
        this.latencyCycles = latencyCycles;
        this.latency = latency;
        this.pages = new DecodedPage[(int) ((sizeBytes + DecodedPage.PAGE_BYTES - 1) / DecodedPage.PAGE_BYTES)];
        final boolean fast = latencyCycles == 0 && latency == null;
        fastLast8 = fast ? sizeBytes - 8 : -1;
        fastLast4 = fast ? sizeBytes - 4 : -1;
        fastLast2 = fast ? sizeBytes - 2 : -1;
        fastLast1 = fast ? sizeBytes - 1 : -1;
        hierarchy = latencyCycles == 0 && latency instanceof MemoryHierarchy ? (MemoryHierarchy) latency : null;
        cachedLast8 = hierarchy != null ? sizeBytes - 8 : -1;
        storeLast1 = fast || hierarchy != null ? sizeBytes - 1 : -1;
    }

    /** @return the region's name (for messages and profiles) */
    public String name() {
        return name;
    }

    /** @return first address, zero-extended */
    public long base() {
        return base;
    }

    /** @return size in bytes */
    public long sizeBytes() {
        return sizeBytes;
    }

    /**
     * Whether an access lies wholly inside the region.
     *
     * @param address   zero-extended address
     * @param sizeBytes access size
     * @return {@code true} when {@code [address, address + sizeBytes)} is inside
     */
    public boolean contains(final long address, final int sizeBytes) {
        final long o = address - base;
        return o >= 0 && o <= this.sizeBytes - sizeBytes;
    }

    /**
     * Extra latency of one access (fixed or from the callback).
     *
     * @param address   address
     * @param sizeBytes size
     * @param store     store or load
     * @param cycle     current cycle
     * @return extra cycles, at least 0
     */
    int extraCycles(final long address, final int sizeBytes, final boolean store, final long cycle) {
        final RegionLatency l = latency;
        return latencyCycles + (l == null ? 0 : Math.max(0, l.extraCycles(address, sizeBytes, store, cycle)));
    }

    long get(final int off, final int size) {
        switch (size) {
            case 1:
                return bytes[off];
            case 2:
                return (short) SHORT.get(bytes, off);
            case 4:
                return (int) INT.get(bytes, off);
            default:
                return (long) LONG.get(bytes, off);
        }
    }

    void put(final int off, final int size, final long v) {
        switch (size) {
            case 1:
                bytes[off] = (byte) v;
                break;
            case 2:
                SHORT.set(bytes, off, (short) v);
                break;
            case 4:
                INT.set(bytes, off, (int) v);
                break;
            default:
                LONG.set(bytes, off, v);
                break;
        }
    }

    /**
     * The page holding a region offset, created if absent, together with the page before it: a
     * store that starts on the previous page may reach into this one, so its stores must reach
     * the store hook too. (A 4-byte instruction in a page's last slot creates the next page.) So
     * the store fast path needs to look at one page only: the one its first byte is on.
     */
    DecodedPage page(final long off) {
        final int i = (int) (off >>> 12);
        DecodedPage p = pages[i];
        if (p == null) {
            p = new DecodedPage(this, i << 12);
            pages[i] = p;
            if (i > 0 && pages[i - 1] == null) {
                pages[i - 1] = new DecodedPage(this, (i - 1) << 12);
            }
        }
        return p;
    }

    /**
     * Clears the decoded slots whose instruction may include bytes {@code [off, off + size)}
     * (an instruction starting up to 2 bytes before may be 4 bytes long), and drops the translated
     * blocks of a page when one of those slots lies inside one ({@link DecodedPage#translated}).
     * Sets {@link #droppedBlocks} when it dropped any.
     */
    void invalidate(final long off, final int size) {
        for (long b = Math.max(0, (off - 2) & ~1L); b < off + size; b += 2) {
            final DecodedPage p = pages[(int) (b >>> 12)];
            if (p != null) {
                final int slot = (int) ((b & 4095) >>> 1);
                p.decoded[slot] = 0L;
                if (p.blocks != null && (p.translated[slot >>> 6] & 1L << slot) != 0) {
                    p.clearBlocks(); // a translation holds the old instruction
                    droppedBlocks = true;
                }
            }
        }
    }

    /** Set by {@link #invalidate} when it dropped translated blocks (cleared by the caller that asks). */
    boolean droppedBlocks;

    void clearDecoded() {
        for (final DecodedPage p : pages) {
            if (p != null) {
                p.clear();
            }
        }
    }
}
