package dev.nicsim.microcode;

import dev.nicsim.pcc.PccContext;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Off-heap store of per-flow context words, as a CC processor core holds them in its context
 * memory: a slot per running flow, found by QPN, zeroed when the flow starts. Also keeps each
 * flow's attributes (line rate, MTU, base RTT).
 *
 * <p>Grows by doubling when full (allocation only then). Thread-safety: not thread-safe; owned by
 * one core.
 */
public final class FlowContextStore {
    private final int words;
    private final Int2IntHashMap slotByQpn = new Int2IntHashMap(-1);
    private UnsafeBuffer memory;
    private int[] freeSlots;
    private int freeCount;
    private int capacity;
    /** Per slot, two words: line rate (bits/s), then MTU (bytes) << 32 | base RTT (ns), read together per event. */
    private long[] attributes;

    /**
     * Creates a store.
     *
     * @param words           context words per flow, 1..256
     * @param initialCapacity initial number of flow slots, positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public FlowContextStore(final int words, final int initialCapacity) {
        if (words < 1 || words > 256) {
            throw new IllegalArgumentException("context words must be in 1..256, got " + words);
        }
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initial capacity must be > 0, got " + initialCapacity);
        }
        this.words = words;
        this.capacity = 0;
        this.memory = new UnsafeBuffer(new byte[0]);
        this.freeSlots = new int[0];
        this.attributes = new long[0];
        grow(initialCapacity);
    }

    /** @return context words per flow */
    public int words() {
        return words;
    }

    /** @return number of running flows */
    public int size() {
        return slotByQpn.size();
    }

    /**
     * Allocates and zeroes a flow's slot.
     *
     * @param qpn                flow id
     * @param lineRate           line rate, bits/s
     * @param mtu                MTU, bytes
     * @param baseRtt            base RTT, ns
     * @return the slot
     * @throws IllegalStateException if the flow already has a slot
     */
    public int allocate(final int qpn, final long lineRate, final int mtu, final int baseRtt) {
        if (slotByQpn.containsKey(qpn)) {
            throw new IllegalStateException("flow " + qpn + " already started");
        }
        if (freeCount == 0) {
            grow(capacity * 2);
        }
        final int slot = freeSlots[--freeCount];
        slotByQpn.put(qpn, slot);
        memory.setMemory(slot * words * 4, words * 4, (byte) 0);
        attributes[2 * slot] = lineRate;
        attributes[2 * slot + 1] = ((long) mtu << 32) | (baseRtt & 0xFFFF_FFFFL);
        return slot;
    }

    /**
     * Frees a flow's slot; nothing happens if the flow has none.
     *
     * @param qpn flow id
     */
    public void free(final int qpn) {
        final int slot = slotByQpn.remove(qpn);
        if (slot != -1) {
            freeSlots[freeCount++] = slot;
        }
    }

    /**
     * @param qpn flow id
     * @return its slot, or -1 if the flow is not running
     */
    public int slot(final int qpn) {
        return slotByQpn.get(qpn);
    }

    /**
     * Points a context flyweight at a slot's words.
     *
     * @param slot    slot from {@link #allocate} or {@link #slot}
     * @param context flyweight to wrap
     * @return the flyweight
     */
    public PccContext wrap(final int slot, final PccContext context) {
        return context.wrap(memory, slot * words * 4, words);
    }

    /**
     * @param slot slot
     * @return line rate of the flow, bits/s
     */
    public long lineRateBitsPerSec(final int slot) {
        return attributes[2 * slot];
    }

    /**
     * @param slot slot
     * @return MTU of the flow, bytes
     */
    public int mtuBytes(final int slot) {
        return (int) (attributes[2 * slot + 1] >> 32);
    }

    /**
     * @param slot slot
     * @return base RTT of the flow, ns
     */
    public int baseRttNs(final int slot) {
        return (int) attributes[2 * slot + 1];
    }

    private void grow(final int newCapacity) {
        final UnsafeBuffer n = new UnsafeBuffer(ByteBuffer.allocateDirect(newCapacity * words * 4));
        n.putBytes(0, memory, 0, capacity * words * 4);
        memory = n;
        final int[] nf = new int[newCapacity];
        System.arraycopy(freeSlots, 0, nf, 0, freeCount);
        for (int s = newCapacity - 1; s >= capacity; s--) {
            nf[freeCount++] = s;
        }
        freeSlots = nf;
        attributes = Arrays.copyOf(attributes, 2 * newCapacity);
        capacity = newCapacity;
    }
}
