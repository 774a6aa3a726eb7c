package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The benchmarks' scripted flow ({@code HandlerFixture}): one flow on a 100 Gb/s port (MTU 1,000
 * B, base RTT 10 us) driven through an algorithm by a fixed pseudo-random mix of events: TX
 * bursts of 4 packets (30 %), ACKs of up to 4 packets with one in four ECN-echoed and an echoed
 * transmit time (40 %), CNPs (8 %), RTT responses (7 %), timers (10 %) and out-of-sequence or RNR
 * NAKs (5 %), 300-1,300 ns apart. The same seed gives the same events, so two algorithms (a Java
 * handler and its C port) can be run side by side and compared event by event.
 *
 * <p>Thread-safety: not thread-safe; one instance per flow being driven.
 */
public final class ScriptedFlow {
    /** Line rate of the scripted flow, bits/s. */
    public static final long LINE_RATE_BITS_PER_SEC = 100_000_000_000L;
    /** MTU, bytes. */
    public static final int MTU_BYTES = 1000;
    /** Base RTT, ns. */
    public static final int BASE_RTT_NS = 10_000;

    private final PccAlgorithm algorithm;
    private final UnsafeBuffer contextBuffer = new UnsafeBuffer(new byte[PccContext.DEFAULT_WORDS * 4]);
    /** The flow's context. */
    public final PccContext context = new PccContext().wrap(contextBuffer, 0, PccContext.DEFAULT_WORDS);
    /** Attributes every event sees. */
    public final PccAttributes attributes = new PccAttributes().set(LINE_RATE_BITS_PER_SEC, 0, false, MTU_BYTES, BASE_RTT_NS);
    /** The result of the last step (or of the flow start). */
    public final PccResult result = new PccResult();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    /** The last event offered. */
    public final PccEvent event = new PccEvent().wrap(scratch, 0);
    private long lcg = 0x5EED;
    private int ns;
    private int psnSent = -1;
    private int psnAcked = -1;

    /**
     * Starts the flow: zeroed context, {@code initFlow} at time 0, first PSN 0.
     *
     * @param algorithm the algorithm to drive
     */
    public ScriptedFlow(final PccAlgorithm algorithm) {
        this.algorithm = algorithm;
        context.clear();
        result.reset();
        algorithm.initFlow(context, 0, attributes, result);
    }

    /**
     * Makes the next event (without running it).
     *
     * @return the event ({@link #event})
     */
    public PccEvent next() {
        final PccEvent e = event;
        lcg = lcg * 6364136223846793005L + 1442695040888963407L;
        ns += 300 + (int) ((lcg >>> 40) % 1000);
        final int pick = (int) ((lcg >>> 20) % 100);
        if (pick < 30) {
            psnSent += 4;
            e.reset(PccEventType.TX_BURST, 0, 1, psnSent, ns).tx(4000, 4);
        } else if (pick < 70) {
            if (psnAcked >= psnSent) {
                psnSent += 4;
            }
            final int first = psnAcked + 1;
            psnAcked = Math.min(psnSent, psnAcked + 1 + (int) ((lcg >>> 50) & 3));
            e.reset(PccEventType.ACK, 0, 1, psnAcked, ns)
                .flags(((lcg >>> 55) & 3) == 0 ? PccEventLayout.FLAG_ECE : 0).rtt(ns - 12_000, 0, 0);
            scratch.putInt(PccEventLayout.FIRST_SN_OFFSET, first, ByteOrder.LITTLE_ENDIAN);
        } else if (pick < 78) {
            e.reset(PccEventType.CNP, 0, 1, psnSent, ns).flags(PccEventLayout.FLAG_BECN);
        } else if (pick < 85) {
            e.reset(PccEventType.RTT_RESPONSE, 0, 1, psnSent, ns).rtt(ns - 11_000, ns - 6_000, ns - 5_900);
        } else if (pick < 95) {
            e.reset(PccEventType.TIMER, 0, 1, psnSent, ns);
        } else {
            e.reset(PccEventType.NACK, ((lcg >>> 57) & 1) == 0 ? PccEventType.NACK_OUT_OF_SEQUENCE : PccEventType.NACK_RNR,
                1, psnAcked + 1, ns);
        }
        return e;
    }

    /**
     * Runs an event (normally the one {@link #next} made) through the algorithm.
     *
     * @param e the event
     * @return the result ({@link #result})
     */
    public PccResult run(final PccEvent e) {
        result.reset();
        algorithm.onEvent(context, e, attributes, result);
        return result;
    }

    /**
     * Makes and runs the next event.
     *
     * @return the result
     */
    public PccResult step() {
        return run(next());
    }
}
