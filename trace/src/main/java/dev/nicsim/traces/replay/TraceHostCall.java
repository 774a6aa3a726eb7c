package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.TraceText;
import dev.nicsim.microcode.firmware.FirmwareLayout;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.wire.BytesInBinaryMarshallable;

import java.util.Arrays;

/**
 * A call the host side made into a source's firmware during a run ({@link TraceMessages#hostCall},
 * format version 4 on), so that a replay makes it again at the same point of the event stream:
 * <ul>
 *   <li>{@link #KIND_MAILBOX}: a host mailbox message ({@code doca_pcc_mailbox_send}, the scenario's
 *       {@code firmware.mailbox}) reached {@code doca_pcc_dev_user_mailbox_handle}: the message's index
 *       in the scenario's list, its request bytes, {@code max_response_bytes}, and the port speed the
 *       firmware read;</li>
 *   <li>{@link #KIND_PORT_STATE}: the source's port went up or down (a scenario's {@code link_events})
 *       and the firmware learnt it ({@code doca_pcc_dev_user_port_info_changed}): the new state and the
 *       port speed.</li>
 * </ul>
 * Firmware state these calls change (a budget, a port's state) shapes later results, so a trace
 * without them replays to different results.
 *
 * <p>Binary form: {@code source, kind (int32), timePs (int64), index (int32: the message index, or
 * 1 up / 0 down), maxResponseBytes (int32), rateBitsPerSec (int64), requestBytes (int32, 0 ..
 * {@link #MAX_REQUEST_BYTES}), request (that many bytes), check (int32, {@link TraceRecordCheck})}.
 * Thread-safety: not thread-safe; a reused holder (its request buffer is never reallocated).
 */
public final class TraceHostCall extends BytesInBinaryMarshallable {
    /** {@link #kind} of a mailbox message. */
    public static final int KIND_MAILBOX = 0;
    /** {@link #kind} of a port-state change. */
    public static final int KIND_PORT_STATE = 1;
    /** Longest request: the host mailbox buffer ({@code FirmwareLayout.HOST_MAILBOX_BYTES}). */
    public static final int MAX_REQUEST_BYTES = FirmwareLayout.HOST_MAILBOX_BYTES;

    /** The source (host index) whose firmware was called. */
    public int source;
    /** {@link #KIND_MAILBOX} or {@link #KIND_PORT_STATE}. */
    public int kind;
    /** Time of the call, ps. */
    public long timePs;
    /** Mailbox: the message's index in the scenario's list, from 0; port state: 1 up, 0 down. */
    public int index;
    /** Mailbox: the most reply bytes the host takes; port state: 0. */
    public int maxResponseBytes;
    /** The port speed the firmware reads, bits/s. */
    public long rateBitsPerSec;
    /** Mailbox: bytes of {@link #request} in use, 0 .. {@link #MAX_REQUEST_BYTES}; port state: 0. */
    public int requestBytes;
    /** Mailbox: the request, its first {@link #requestBytes} bytes. */
    public final byte[] request = new byte[MAX_REQUEST_BYTES];

    /** Creates a zeroed record. */
    public TraceHostCall() {
    }

    /**
     * Fills the record with a mailbox message.
     *
     * @param src              source
     * @param atPs             time, ps
     * @param messageIndex     index in the scenario's list
     * @param req              the request bytes, at most {@link #MAX_REQUEST_BYTES}
     * @param maxResponse      most reply bytes
     * @param rate             port speed, bits/s
     * @return this
     * @throws IllegalArgumentException if the request is too long
     */
    public TraceHostCall mailbox(final int src, final long atPs, final int messageIndex, final byte[] req,
                                 final int maxResponse, final long rate) {
        if (req.length > MAX_REQUEST_BYTES) {
            throw new IllegalArgumentException("request: at most " + MAX_REQUEST_BYTES + " bytes, got " + req.length);
        }
        source = src;
        kind = KIND_MAILBOX;
        timePs = atPs;
        index = messageIndex;
        maxResponseBytes = maxResponse;
        rateBitsPerSec = rate;
        requestBytes = req.length;
        System.arraycopy(req, 0, request, 0, req.length);
        return this;
    }

    /**
     * Fills the record with a port-state change.
     *
     * @param src  source
     * @param atPs time, ps
     * @param up   the port's new state
     * @param rate port speed, bits/s
     * @return this
     */
    public TraceHostCall portState(final int src, final long atPs, final boolean up, final long rate) {
        source = src;
        kind = KIND_PORT_STATE;
        timePs = atPs;
        index = up ? 1 : 0;
        maxResponseBytes = 0;
        rateBitsPerSec = rate;
        requestBytes = 0;
        return this;
    }

    /** @return a copy of the request bytes in use */
    public byte[] requestCopy() {
        return Arrays.copyOf(request, requestBytes);
    }

    @Override
    public void writeMarshallable(final BytesOut<?> bytes) {
        bytes.writeInt(source);
        bytes.writeInt(kind);
        bytes.writeLong(timePs);
        bytes.writeInt(index);
        bytes.writeInt(maxResponseBytes);
        bytes.writeLong(rateBitsPerSec);
        bytes.writeInt(requestBytes);
        bytes.write(request, 0, requestBytes);
        bytes.writeInt(check());
    }

    /** @return the record check of the fields ({@link TraceRecordCheck}) */
    private int check() {
        long h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.HOST_CALL, source), kind),
            timePs);
        h = TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.mix(TraceRecordCheck.mix(h, index), maxResponseBytes),
            rateBitsPerSec), requestBytes);
        for (int i = 0; i < requestBytes; i++) {
            h = TraceRecordCheck.mix(h, request[i]);
        }
        return TraceRecordCheck.finish(h);
    }

    @Override
    public void readMarshallable(final BytesIn<?> bytes) {
        source = bytes.readInt();
        kind = bytes.readInt();
        timePs = bytes.readLong();
        index = bytes.readInt();
        maxResponseBytes = bytes.readInt();
        rateBitsPerSec = bytes.readLong();
        final int n = bytes.readInt();
        if (n < 0 || n > MAX_REQUEST_BYTES || (kind != KIND_MAILBOX && kind != KIND_PORT_STATE)) {
            throw new TraceRecordCheck.Corrupt("host_call record with kind " + kind + " and " + n + " request bytes");
        }
        requestBytes = n;
        bytes.read(request, 0, n);
        TraceRecordCheck.verify(bytes.readInt(), check(), "host_call");
    }

    /** Zeroes every field. */
    @Override
    public void reset() {
        source = 0;
        kind = 0;
        timePs = 0;
        index = 0;
        maxResponseBytes = 0;
        rateBitsPerSec = 0;
        requestBytes = 0;
    }

    @Override
    public String toString() {
        if (kind == KIND_PORT_STATE) {
            return "port_state time_ns=" + TraceText.ns(timePs) + " src=" + source + " state=" + (index != 0 ? "up" : "down")
                + " rate_bits_per_sec=" + rateBitsPerSec;
        }
        final StringBuilder hex = new StringBuilder(2 * requestBytes);
        for (int i = 0; i < requestBytes; i++) {
            hex.append(Character.forDigit(request[i] >> 4 & 0xF, 16)).append(Character.forDigit(request[i] & 0xF, 16));
        }
        return "mailbox time_ns=" + TraceText.ns(timePs) + " src=" + source + " message=" + index + " request_hex="
            + hex + " max_response_bytes=" + maxResponseBytes + " rate_bits_per_sec=" + rateBitsPerSec;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof TraceHostCall c && c.source == source && c.kind == kind && c.timePs == timePs && c.index == index
            && c.maxResponseBytes == maxResponseBytes && c.rateBitsPerSec == rateBitsPerSec && c.requestBytes == requestBytes
            && Arrays.equals(c.request, 0, requestBytes, request, 0, requestBytes);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timePs) * 31 + source * 7 + kind;
    }
}
