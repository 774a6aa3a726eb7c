package dev.nicsim.pcc;

import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * Flyweight over one flow's context: a fixed number of 32-bit words (12 words = 48 bytes by
 * default, {@link #DEFAULT_WORDS}) zeroed when the flow starts. An algorithm keeps all of its
 * per-flow state here, as NIC microcode keeps it in the flow's context memory.
 *
 * <p>Words are little-endian ints. A heap buffer's words are read and written at the address
 * {@link #wrap} found, with one check (index against the word count; wrap checks that the words
 * lie inside the buffer's capacity), not the buffer's own per-access bounds check: a handler reads
 * dozens of words per event. Re-wrap after the buffer is pointed at other memory (as
 * {@code FlowContextStore} does per event). An off-heap buffer is read through its own accessors.
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
    /** The heap buffer's array, or null when the buffer is off-heap or not little-endian native. */
    private byte[] array;
    /** Address of word 0 inside {@link #array} (Unsafe offset). */
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
        final byte[] a = buffer.byteArray();
        this.array = NATIVE_LITTLE_ENDIAN ? a : null;
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
            throw new IndexOutOfBoundsException("context word " + index + " not in 0.." + (words - 1));
        }
        final byte[] a = array;
        if (a != null) {
            return UnsafeApi.getInt(a, address + (index << 2));
        }
        return buffer.getInt(offset + (index << 2), ORDER);
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
            throw new IndexOutOfBoundsException("context word " + index + " not in 0.." + (words - 1));
        }
        final byte[] a = array;
        if (a != null) {
            UnsafeApi.putInt(a, address + (index << 2), value);
            return;
        }
        buffer.putInt(offset + (index << 2), value, ORDER);
    }

    /** Zeroes all words, as the NIC does when a flow starts. */
    public void clear() {
        buffer.setMemory(offset, words << 2, (byte) 0);
    }
}
