package dev.nicsim.pcc;

import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * Flyweight over one flow's context: a fixed number of 32-bit words (12 words = 48 bytes by
 * default, {@link #DEFAULT_WORDS}) zeroed when the flow starts. An algorithm keeps all of its
 * per-flow state here, as NIC microcode keeps it in the flow's context memory.
 *
 * <p>Words are little-endian ints. On a little-endian machine every word is read and written by
 * one Unsafe access at the address {@link #wrap} found (the heap array plus offset, or the
 * off-heap buffer's absolute address), with one check (index against the word count; wrap checked
 * that the words lie inside the buffer's capacity), not the buffer's own per-access bounds check:
 * a handler reads dozens of words per event. {@link #get} and {@link #set} are kept to a few
 * dozen bytes of bytecode (the error text is built in a separate method) so that the JIT inlines
 * every one of them into a handler, however many the handler has. The flyweight keeps a
 * reference to the buffer, so off-heap memory stays alive while it is wrapped. Re-wrap after the
 * buffer is pointed at other memory (as {@code FlowContextStore} does per event). On a
 * big-endian machine the words go through the buffer's own accessors.
 *
 * <p>Thread-safety: not thread-safe; a flow's context is owned by the
 * one core that runs the flow's events.
 */
public final class PccContext {
    /** Default number of 32-bit context words per flow (48 bytes). */
    public static final int DEFAULT_WORDS = 12;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private static final boolean NATIVE_LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private int offset;
    private int words;
    /** The heap buffer's array, or null when the buffer is off-heap (then {@link #address} is absolute). */
    private byte[] array;
    /** Address of word 0: inside {@link #array} (Unsafe offset), or absolute for an off-heap buffer. */
    private long address;

    /** Creates an unwrapped flyweight; call {@link #wrap} before use. */
    public PccContext() {
    }

    /**
     * Points this flyweight at a flow's context words.
     *
     * @param buffer buffer holding the words; at least {@code offset + 4 * words} bytes
     * @param offset byte offset of word 0
     * @param words  number of words, 1..256
     * @return this
     * @throws IndexOutOfBoundsException if the words do not lie inside the buffer's capacity
     */
    public PccContext wrap(final MutableDirectBuffer buffer, final int offset, final int words) {
        if (offset < 0 || words < 0 || (long) offset + 4L * words > buffer.capacity()) {
            throw new IndexOutOfBoundsException("context of " + words + " words at byte " + offset
                + " does not fit a buffer of " + buffer.capacity() + " bytes");
        }
        this.buffer = buffer;
        this.offset = offset;
        this.words = words;
        this.array = buffer.byteArray();
        this.address = buffer.addressOffset() + offset;
        return this;
    }

    /** @return number of words in this context */
    public int words() {
        return words;
    }

    /**
     * Reads a word.
     *
     * @param index word index, {@code 0 .. words-1}
     * @return the word
     * @throws IndexOutOfBoundsException if index is outside the context
     */
    public int get(final int index) {
        if (index < 0 || index >= words) {
            throw outside(index);
        }
        return NATIVE_LITTLE_ENDIAN ? UnsafeApi.getInt(array, address + (index << 2)) : getOrdered(index);
    }

    /**
     * Writes a word.
     *
     * @param index word index, {@code 0 .. words-1}
     * @param value the value
     * @throws IndexOutOfBoundsException if index is outside the context
     */
    public void set(final int index, final int value) {
        if (index < 0 || index >= words) {
            throw outside(index);
        }
        if (NATIVE_LITTLE_ENDIAN) {
            UnsafeApi.putInt(array, address + (index << 2), value);
        } else {
            buffer.putInt(offset + (index << 2), value, ORDER);
        }
    }

    /** {@link #get} on a big-endian machine: through the buffer, little-endian. */
    private int getOrdered(final int index) {
        return buffer.getInt(offset + (index << 2), ORDER);
    }

    /** The error for a word index outside {@code 0 .. words-1}, built out of line to keep get/set small. */
    private IndexOutOfBoundsException outside(final int index) {
        return new IndexOutOfBoundsException("context word " + index + " not in 0.." + (words - 1));
    }

    /** Zeroes all words, as the NIC does when a flow starts. */
    public void clear() {
        buffer.setMemory(offset, words << 2, (byte) 0);
    }
}
