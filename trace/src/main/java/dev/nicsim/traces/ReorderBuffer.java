package dev.nicsim.traces;

import java.util.Arrays;

/**
 * The packets {@link CaptureDecoder} holds back while their interface's reorder window is open: a
 * copy of each packet record (bytes, link type, lengths, timestamp) in a reusable slot, and per
 * interface a binary min-heap of slots ordered by (timestamp, file order), so equal timestamps
 * keep their order in the file (a stable sort, as Wireshark's {@code reordercap} sorts).
 *
 * <p>Memory: slots and their byte arrays are reused once released; the slot table and the heaps
 * grow by doubling to the peak number of packets held at once; a slot's byte array is made as large
 * as the largest record added so far whenever it is too small. {@link #bufferedBytes()} is the captured bytes currently held. Allocation:
 * none per packet once the peak is reached. Thread-safety: not thread-safe; owned by one decoder.
 */
final class ReorderBuffer {
    private int slotCap = 64;
    private long[] timeNs = new long[slotCap];
    private long[] seq = new long[slotCap];
    private long[] number = new long[slotCap];
    private int[] linkType = new int[slotCap];
    private int[] interfaceOf = new int[slotCap];
    private int[] capturedLength = new int[slotCap];
    private int[] originalLength = new int[slotCap];
    private byte[][] data = new byte[slotCap][];
    private int[] free = new int[slotCap];
    private int freeCount;
    private int used;

    /** Per interface: its heap of slots. */
    private int[][] heaps = new int[4][];
    private int[] heapSizes = new int[4];
    private long bufferedBytes;
    private int held;
    /** Largest captured length added so far (at least 2048), bytes: the size of every new slot array. */
    private int largestCaptured = 2048;

    /** Creates an empty buffer. */
    ReorderBuffer() {
        for (int i = 0; i < heaps.length; i++) {
            heaps[i] = new int[16];
        }
    }

    /** @return packets held, all interfaces */
    int held() {
        return held;
    }

    /** @return captured bytes held, all interfaces */
    long bufferedBytes() {
        return bufferedBytes;
    }

    /**
     * Copies a packet record in and files it under its interface.
     *
     * @param iface      interface id, 0..
     * @param time       its timestamp, ns since the epoch (the sort key)
     * @param sequence   its position in the file among the packets added (strictly increasing)
     * @param packetNo   its 1-based packet number in the file, for messages
     * @param link       its link type
     * @param src        buffer holding its bytes
     * @param offset     offset of its first byte in {@code src}
     * @param captured   bytes captured
     * @param original   bytes on the wire as recorded
     */
    void add(final int iface, final long time, final long sequence, final long packetNo, final int link,
             final byte[] src, final int offset, final int captured, final int original) {
        final int slot = takeSlot();
        timeNs[slot] = time;
        seq[slot] = sequence;
        number[slot] = packetNo;
        linkType[slot] = link;
        interfaceOf[slot] = iface;
        capturedLength[slot] = captured;
        originalLength[slot] = original;
        largestCaptured = Math.max(largestCaptured, captured);
        byte[] b = data[slot];
        if (b == null || b.length < captured) {
            b = new byte[largestCaptured]; // any slot then holds any packet seen so far: slots grow once per new peak
            data[slot] = b;
        }
        System.arraycopy(src, offset, b, 0, captured);
        bufferedBytes += captured;
        held++;
        push(iface, slot);
    }

    /**
     * @param iface interface id
     * @return how many packets of that interface are held with a timestamp later than {@code time}
     *         (scans the interface's heap)
     */
    int countLaterThan(final int iface, final long time) {
        if (iface >= heaps.length) {
            return 0;
        }
        final int[] h = heaps[iface];
        int n = 0;
        for (int i = 0; i < heapSizes[iface]; i++) {
            if (timeNs[h[i]] > time) {
                n++;
            }
        }
        return n;
    }

    /**
     * @param iface interface id
     * @return the slot of that interface's earliest packet (ties: first in the file), or -1 if none
     */
    int peek(final int iface) {
        return iface < heaps.length && heapSizes[iface] > 0 ? heaps[iface][0] : -1;
    }

    /**
     * The slot to release next when every interface is flushed: among the interfaces' earliest
     * packets, the one first in the file.
     *
     * @return a slot, or -1 when nothing is held
     */
    int peekFlush() {
        int best = -1;
        for (int i = 0; i < heaps.length; i++) {
            if (heapSizes[i] > 0) {
                final int s = heaps[i][0];
                if (best < 0 || seq[s] < seq[best]) {
                    best = s;
                }
            }
        }
        return best;
    }

    /**
     * Removes an interface's earliest packet; its slot stays readable until the next {@link #add}.
     *
     * @param iface interface id whose {@link #peek} is not -1
     * @return its slot
     */
    int pop(final int iface) {
        final int[] h = heaps[iface];
        final int top = h[0];
        final int n = --heapSizes[iface];
        if (n > 0) {
            h[0] = h[n];
            siftDown(h, n, 0);
        }
        bufferedBytes -= capturedLength[top];
        held--;
        free[freeCount++] = top; // free has a place for every slot
        return top;
    }

    /** Drops everything held (a new capture). */
    void clear() {
        Arrays.fill(heapSizes, 0);
        freeCount = 0;
        used = 0;
        bufferedBytes = 0;
        held = 0;
    }

    long timeNs(final int slot) {
        return timeNs[slot];
    }

    long number(final int slot) {
        return number[slot];
    }

    int linkType(final int slot) {
        return linkType[slot];
    }

    int interfaceOf(final int slot) {
        return interfaceOf[slot];
    }

    int capturedLength(final int slot) {
        return capturedLength[slot];
    }

    int originalLength(final int slot) {
        return originalLength[slot];
    }

    byte[] data(final int slot) {
        return data[slot];
    }

    /** @return a free slot, reusing released ones first */
    private int takeSlot() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (used == slotCap) {
            slotCap *= 2;
            timeNs = Arrays.copyOf(timeNs, slotCap);
            seq = Arrays.copyOf(seq, slotCap);
            number = Arrays.copyOf(number, slotCap);
            linkType = Arrays.copyOf(linkType, slotCap);
            interfaceOf = Arrays.copyOf(interfaceOf, slotCap);
            capturedLength = Arrays.copyOf(capturedLength, slotCap);
            originalLength = Arrays.copyOf(originalLength, slotCap);
            data = Arrays.copyOf(data, slotCap);
            free = Arrays.copyOf(free, slotCap);
        }
        return used++;
    }

    private void push(final int iface, final int slot) {
        if (iface >= heaps.length) {
            final int n = Math.max(iface + 1, 2 * heaps.length);
            final int old = heaps.length;
            heaps = Arrays.copyOf(heaps, n);
            heapSizes = Arrays.copyOf(heapSizes, n);
            for (int i = old; i < n; i++) {
                heaps[i] = new int[16];
            }
        }
        int[] h = heaps[iface];
        final int n = heapSizes[iface];
        if (n == h.length) {
            h = Arrays.copyOf(h, slotCap); // a heap never holds more than every slot
            heaps[iface] = h;
        }
        int i = n;
        h[i] = slot;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (!before(h[i], h[parent])) {
                break;
            }
            final int t = h[i];
            h[i] = h[parent];
            h[parent] = t;
            i = parent;
        }
        heapSizes[iface] = n + 1;
    }

    private void siftDown(final int[] h, final int n, final int from) {
        int i = from;
        while (true) {
            final int l = 2 * i + 1;
            if (l >= n) {
                return;
            }
            final int r = l + 1;
            final int c = r < n && before(h[r], h[l]) ? r : l;
            if (!before(h[c], h[i])) {
                return;
            }
            final int t = h[i];
            h[i] = h[c];
            h[c] = t;
            i = c;
        }
    }

    /** Stable order: earlier timestamp first, equal timestamps in file order. */
    private boolean before(final int a, final int b) {
        return timeNs[a] < timeNs[b] || (timeNs[a] == timeNs[b] && seq[a] < seq[b]);
    }
}
