package dev.nicsim.riscv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The physical memory a core sees: non-overlapping {@link MemoryRegion}s (the ELF's loaded
 * segments, declared RAM, and regions with their own latency); an access anywhere else is an
 * access fault (Volume II §3.7.1: cause 1, 5 or 7).
 *
 * <p>Thread-safety: not thread-safe; build it, then hand it to one core (one thread).
 */
public final class Memory {
    /** Largest region, in bytes (a Java array). */
    public static final long MAX_REGION_BYTES = Integer.MAX_VALUE - 15;

    private MemoryRegion[] regions = new MemoryRegion[0];
    private long watchAddress = Long.MIN_VALUE;

    /** Creates an empty memory. */
    public Memory() {
    }

    /**
     * Adds a region whose accesses cost a fixed number of extra cycles.
     *
     * @param name          name for messages
     * @param base          first address, zero-extended
     * @param sizeBytes     1 to {@link #MAX_REGION_BYTES}
     * @param latencyCycles extra cycles per load/AMO beyond the model's load latency, at least 0
     * @return the region (zero-filled)
     * @throws IllegalArgumentException when the size is out of range or it overlaps a region
     */
    public MemoryRegion addRegion(final String name, final long base, final long sizeBytes, final int latencyCycles) {
        if (latencyCycles < 0) {
            throw new IllegalArgumentException("region " + name + ": negative latency " + latencyCycles);
        }
        return add(new MemoryRegionArgs(name, base, sizeBytes), latencyCycles, null);
    }

    /**
     * Adds a region whose accesses cost what a callback says, per access (the flow-context hook).
     *
     * @param name      name for messages
     * @param base      first address, zero-extended
     * @param sizeBytes 1 to {@link #MAX_REGION_BYTES}
     * @param latency   asked once per load/AMO to the region
     * @return the region (zero-filled)
     * @throws IllegalArgumentException when the size is out of range or it overlaps a region
     */
    public MemoryRegion addRegion(final String name, final long base, final long sizeBytes, final RegionLatency latency) {
        return add(new MemoryRegionArgs(name, base, sizeBytes), 0, Objects.requireNonNull(latency));
    }

    private record MemoryRegionArgs(String name, long base, long sizeBytes) {
    }

    private MemoryRegion add(final MemoryRegionArgs a, final int fixed, final RegionLatency fn) {
        if (a.sizeBytes() <= 0 || a.sizeBytes() > MAX_REGION_BYTES || a.base() < 0 || a.base() + a.sizeBytes() < 0) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "region %s: bad base 0x%x or size %d", a.name(), a.base(), a.sizeBytes()));
        }
        for (final MemoryRegion r : regions) {
            if (a.base() < r.base + r.sizeBytes && r.base < a.base() + a.sizeBytes()) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "region %s [0x%x, 0x%x) overlaps region %s [0x%x, 0x%x)",
                    a.name(), a.base(), a.base() + a.sizeBytes(), r.name, r.base, r.base + r.sizeBytes));
            }
        }
        final MemoryRegion m = new MemoryRegion(a.name(), a.base(), a.sizeBytes(), fixed, fn);
        final List<MemoryRegion> l = new ArrayList<>(Arrays.asList(regions));
        l.add(m);
        l.sort((x, y) -> Long.compare(x.base, y.base));
        regions = l.toArray(new MemoryRegion[0]);
        if (m.contains(watchAddress, 1)) {
            m.page(watchAddress - m.base).watched = true;
        }
        return m;
    }

    /** @return the regions, sorted by address */
    public List<MemoryRegion> regions() {
        return List.of(regions);
    }

    /**
     * Finds the region holding an access.
     *
     * @param address   zero-extended address
     * @param sizeBytes access size
     * @return the region, or {@code null} when the access is not wholly inside one
     */
    public MemoryRegion find(final long address, final int sizeBytes) {
        for (final MemoryRegion r : regions) {
            if (r.contains(address, sizeBytes)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The decoded page holding an instruction fetch (a page shorter than 4 KiB at its region's end
     * faults in {@link DecodedPage#decode} past the region).
     *
     * @param pc zero-extended address
     * @return the page, or {@code null} when no region holds the 2 bytes at pc
     */
    DecodedPage decodedPage(final long pc) {
        final MemoryRegion r = find(pc, 2);
        return r == null ? null : r.page(pc - r.base);
    }

    /**
     * The instruction bits an illegal-instruction exception reports in mtval: the 4 bytes at pc,
     * else the 2 bytes there when only they are mapped, else 0.
     *
     * @param pc zero-extended address
     * @return the bits, zero-extended to 32
     */
    int instructionBits(final long pc) {
        final MemoryRegion r = find(pc, 4);
        if (r != null) {
            return (int) r.get((int) (pc - r.base), 4);
        }
        final MemoryRegion r2 = find(pc, 2);
        return r2 == null ? 0 : (int) r2.get((int) (pc - r2.base), 2) & 0xffff;
    }

    /**
     * Sets the one watched 8-byte location (the riscv-tests {@code tohost}): stores to it reach
     * {@link Hart}'s store hook.
     *
     * @param address zero-extended address
     */
    void watch(final long address) {
        watchAddress = address;
        final MemoryRegion r = find(address, 1);
        if (r != null) {
            r.page(address - r.base).watched = true;
        }
    }

    long watchAddress() {
        return watchAddress;
    }

    /**
     * Copies bytes in (loader, tests, the host side of a syscall).
     *
     * @param address zero-extended address
     * @param data    bytes
     * @throws IllegalArgumentException when the bytes are not inside one region
     */
    public void write(final long address, final byte[] data) {
        write(address, data, data.length);
    }

    /**
     * Copies the first bytes of an array in (a reused buffer of which only a prefix is valid).
     *
     * @param address zero-extended address
     * @param data    bytes
     * @param length  how many of them, 0..{@code data.length}
     * @throws IllegalArgumentException when the bytes are not inside one region or length is out of range
     */
    public void write(final long address, final byte[] data, final int length) {
        if (length < 0 || length > data.length) {
            throw new IllegalArgumentException("length " + length + " outside 0.." + data.length);
        }
        if (length == 0) {
            return;
        }
        final MemoryRegion r = find(address, length);
        if (r == null) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "no memory at [0x%x, 0x%x)", address, address + length));
        }
        System.arraycopy(data, 0, r.bytes, (int) (address - r.base), length);
        r.invalidate(address - r.base, length);
    }

    /**
     * Copies bytes out.
     *
     * @param address   zero-extended address
     * @param sizeBytes count
     * @return the bytes, or {@code null} when they are not inside one region
     */
    public byte[] read(final long address, final int sizeBytes) {
        final MemoryRegion r = find(address, sizeBytes);
        if (r == null) {
            return null;
        }
        final byte[] out = new byte[sizeBytes];
        System.arraycopy(r.bytes, (int) (address - r.base), out, 0, sizeBytes);
        return out;
    }

    /**
     * Reads a little-endian value (sign-extended).
     *
     * @param address   zero-extended address
     * @param sizeBytes 1, 2, 4 or 8
     * @return the value
     * @throws IllegalArgumentException when there is no memory there
     */
    public long load(final long address, final int sizeBytes) {
        final MemoryRegion r = find(address, sizeBytes);
        if (r == null) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "no memory at 0x%x", address));
        }
        return r.get((int) (address - r.base), sizeBytes);
    }

    /**
     * Writes a little-endian value.
     *
     * @param address   zero-extended address
     * @param sizeBytes 1, 2, 4 or 8
     * @param value     the value (low bytes used)
     * @throws IllegalArgumentException when there is no memory there
     */
    public void store(final long address, final int sizeBytes, final long value) {
        final MemoryRegion r = find(address, sizeBytes);
        if (r == null) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "no memory at 0x%x", address));
        }
        r.put((int) (address - r.base), sizeBytes, value);
        r.invalidate(address - r.base, sizeBytes);
    }

    /**
     * The harts that may hold an LR reservation in this memory (Volume I §8.2: an SC fails when a
     * store from another hart wrote the reserved bytes since the LR; the harts of one
     * {@link Core}, and harts of other cores sharing this memory, all store through it). Short:
     * a hart joins on its LR and leaves when a store or its SC ends the reservation; grows
     * (allocates) only when more harts than ever before hold one at once.
     */
    private Hart[] reservers = new Hart[4];
    private int reserverCount;

    /** Registers a hart that has just taken a reservation. */
    void addReserver(final Hart h) {
        for (int i = 0; i < reserverCount; i++) {
            if (reservers[i] == h) {
                return;
            }
        }
        if (reserverCount == reservers.length) {
            reservers = Arrays.copyOf(reservers, 2 * reserverCount);
        }
        reservers[reserverCount++] = h;
    }

    /**
     * A hart stored {@code [address, address + sizeBytes)}: every reservation whose 8-byte
     * granule (the reservation set; Volume I §8.2 lets it be any set that holds the reserved
     * bytes) those bytes touch ends, the storing hart's own included.
     *
     * @param address   first byte, zero-extended
     * @param sizeBytes 1 to 8
     */
    void breakReservations(final long address, final int sizeBytes) {
        final long first = address >>> 3;
        final long last = (address + sizeBytes - 1) >>> 3;
        for (int i = 0; i < reserverCount; i++) {
            final Hart h = reservers[i];
            final long g = h.reservation >>> 3;
            final boolean none = h.reservation == -1;
            if (none || (g >= first && g <= last)) {
                h.reservation = -1;
                reservers[i] = reservers[--reserverCount];
                reservers[reserverCount] = null;
                i--;
            }
        }
    }

    /** Drops every decoded instruction ({@code fence.i}). */
    void clearDecoded() {
        for (final MemoryRegion r : regions) {
            r.clearDecoded();
        }
    }
}
