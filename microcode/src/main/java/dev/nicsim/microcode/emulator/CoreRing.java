package dev.nicsim.microcode.emulator;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The event ring of a free-running {@link EmulatorCore}: an Agrona single-producer
 * single-consumer ring from the producer thread to the core's agent thread, and the count of
 * events the consumer has released, which the producer reads to bound the core's queue (ring plus
 * pending table) to {@code ringCapacity} events. Stepped, the core has no ring: an offered event
 * goes into its pending table at once, with the same checks, merges and counts.
 *
 * <h2>Ring record (Agrona {@link OneToOneRingBuffer}, message type {@link #MSG_EVENT})</h2>
 * <pre>
 *   0                                                              63
 *  +----------------------------------------------------------------+
 *  |  PCC event record, {@link PccEventLayout} (64 bytes, as is)          |  0
 *  +----------------------------------------------------------------+
 *  |  arrival time, ps (int64, little-endian)                       | 64
 *  +----------------------------------------------------------------+
 * </pre>
 * With Agrona's 8-byte record header a record takes {@link #SLOT_LENGTH} = 80 bytes of the ring.
 *
 * <p>Thread-safety: {@link #offer} and {@link #producerPosition} on the producer thread;
 * {@link #drain} and {@link #publishReleased} on the consumer thread; {@link #open} and
 * {@link #close} while neither runs. The released count is published with an ordered write and
 * read volatile.
 */
final class CoreRing {
    /** Agrona message type of an event record. */
    static final int MSG_EVENT = 1;
    /** Offset of the arrival time (ps) after the PCC record in a ring message. */
    static final int ARRIVAL_OFFSET = PccEventLayout.RECORD_LENGTH;
    /** Ring message payload: the 64-byte PCC record and the 8-byte arrival time. */
    static final int PAYLOAD_LENGTH = PccEventLayout.RECORD_LENGTH + 8;
    /** Bytes one record takes in the ring, header included, aligned. */
    static final int SLOT_LENGTH = BitUtil.align(RecordDescriptor.HEADER_LENGTH + PAYLOAD_LENGTH,
        RecordDescriptor.ALIGNMENT);
    /** Byte order of the arrival time. */
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int RELEASED_OFFSET = 64;

    private final int capacity;
    /** The ring while open, else null. */
    private OneToOneRingBuffer ring;
    private AtomicBuffer ringBuffer;
    /** The ring, allocated when first opened. */
    private OneToOneRingBuffer ownRing;
    private AtomicBuffer ownRingBuffer;
    /** Producer's last read of the released count. */
    private long releasedCache;
    /** Released count, on its own cache line. */
    private final UnsafeBuffer shared = new UnsafeBuffer(new byte[3 * 64]);

    /** @param capacity events the core's queue holds, at least 1 */
    CoreRing(final int capacity) {
        this.capacity = capacity;
    }

    /**
     * Opens the ring for free-running: allocated on first use with room for {@code capacity}
     * records of {@link #SLOT_LENGTH} bytes plus Agrona's wrap padding, rounded up to a power of
     * two (at least 1 KiB), off-heap.
     */
    void open() {
        if (ownRing == null) {
            ownRingBuffer = newRingBuffer(capacity);
            ownRing = new OneToOneRingBuffer(ownRingBuffer);
        }
        ring = ownRing;
        ringBuffer = ownRingBuffer;
    }

    /** Closes the ring (stepped mode); it must be drained. */
    void close() {
        ring = null;
        ringBuffer = null;
    }

    /**
     * @param capacity records the ring must hold
     * @return an off-heap buffer for an Agrona ring of that many records (power-of-two data
     *         section of at least 1 KiB plus the trailer)
     */
    static AtomicBuffer newRingBuffer(final int capacity) {
        final int ringBytes = Math.max(1024, BitUtil.findNextPositivePowerOfTwo(capacity * SLOT_LENGTH + 2 * SLOT_LENGTH));
        return new UnsafeBuffer(ByteBuffer.allocateDirect(ringBytes + RingBufferDescriptor.TRAILER_LENGTH));
    }

    /**
     * Producer: puts an event on the open ring unless the core's queue is full.
     *
     * @param event     the event
     * @param arrivalPs arrival time, ps
     * @param accepted  events the producer has accepted so far
     * @return the queue's depth before this event, or -1 when the event is dropped
     */
    long offer(final PccEvent event, final long arrivalPs, final long accepted) {
        long depth = accepted - releasedCache;
        if (depth >= capacity) {
            releasedCache = shared.getLongVolatile(RELEASED_OFFSET);
            depth = accepted - releasedCache;
        }
        if (depth >= capacity) {
            return -1;
        }
        final int at = ring.tryClaim(MSG_EVENT, PAYLOAD_LENGTH);
        if (at < 0) {
            return -1; // cannot happen with the ring sized for capacity records; dropped and counted anyway
        }
        ringBuffer.putBytes(at, event.buffer(), event.offset(), PccEventLayout.RECORD_LENGTH);
        ringBuffer.putLong(at + ARRIVAL_OFFSET, arrivalPs, ORDER);
        ring.commit(at);
        return depth;
    }

    /** @return the producer position, bytes, of the open ring, 0 when closed */
    long producerPosition() {
        return ring == null ? 0 : ring.producerPosition();
    }

    /**
     * Consumer: hands every record on the ring to a handler. An Agrona read stops at the end of
     * the buffer, so a second read takes the records that wrapped to its start.
     *
     * @param handler receives each record (payload as drawn above)
     * @return records read; 0 when closed
     */
    int drain(final MessageHandler handler) {
        if (ring == null) {
            return 0;
        }
        int n = ring.read(handler, capacity);
        if (ring.consumerPosition() != ring.producerPosition()) {
            n += ring.read(handler, capacity);
        }
        return n;
    }

    /**
     * Consumer: publishes the released count for the producer.
     *
     * @param released events the consumer has released so far
     */
    void publishReleased(final long released) {
        shared.putLongOrdered(RELEASED_OFFSET, released);
    }

    /**
     * Publishes the released count and sets the producer's copy of it, while neither side runs
     * (before free-running starts, after it stops).
     *
     * @param released events the consumer has released so far
     */
    void resetReleased(final long released) {
        shared.putLongOrdered(RELEASED_OFFSET, released);
        releasedCache = released;
    }
}
