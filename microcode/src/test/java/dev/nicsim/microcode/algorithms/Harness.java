package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Drives one algorithm instance on one flow directly (no processor): a 12-word context (more if the
 * algorithm declares more), one event
 * record, attributes of a 100 Gb/s port with 1000-byte MTU and 10 us base RTT (BDP 125,000 bytes
 * = 125 packets), and the result of the last call.
 */
final class Harness {
    static final long LINE_BPS = 100_000_000_000L;
    static final int MTU = 1000;
    static final int BASE_RTT_NS = 10_000;
    static final int QPN = 7;

    final PccAlgorithm algorithm;
    final PccContext context;
    final PccEvent event = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
    final PccAttributes attributes = new PccAttributes().set(LINE_BPS, 0, false, MTU, BASE_RTT_NS);
    final PccResult result = new PccResult();

    Harness(final PccAlgorithmProvider provider, final Object... nameValuePairs) {
        final PccParameterValues values = provider.defaults();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            values.set((String) nameValuePairs[i], ((Number) nameValuePairs[i + 1]).doubleValue());
        }
        algorithm = provider.create(values);
        // 12 words (48 bytes, the DOCA-sized context) unless the algorithm declares more (hpcc)
        final int words = Math.max(PccContext.DEFAULT_WORDS, algorithm.contextWords());
        context = new PccContext().wrap(new UnsafeBuffer(new byte[4 * words]), 0, words);
        context.clear();
    }

    int word(final int index) {
        return context.get(index);
    }

    long counter(final String name) {
        return algorithm.counters().get(name);
    }

    PccResult init(final int nowNs) {
        return init(nowNs, 0);
    }

    /** Starts the flow with its first PSN {@code initialPsn}; later events see the attribute as 0. */
    PccResult init(final int nowNs, final int initialPsn) {
        result.reset();
        attributes.initialPsn(initialPsn);
        algorithm.initFlow(context, nowNs, attributes, result);
        attributes.initialPsn(0);
        return result;
    }

    private PccResult run() {
        result.reset();
        algorithm.onEvent(context, event, attributes, result);
        return result;
    }

    /** ACK for PSNs firstSn..sn; echoNs = echoed transmit time (0 = none). */
    PccResult ack(final int firstSn, final int sn, final boolean ece, final int tsNs, final int echoNs) {
        event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, QPN, sn, tsNs)
            .flags(ece ? PccEventLayout.FLAG_ECE : 0).rtt(echoNs, 0, 0);
        event.buffer().putInt(event.offset() + PccEventLayout.FIRST_SN_OFFSET, firstSn, ByteOrder.LITTLE_ENDIAN);
        return run();
    }

    PccResult ack(final int firstSn, final int sn, final boolean ece) {
        return ack(firstSn, sn, ece, 0, 0);
    }

    PccResult nack(final int subtype, final int firstSn, final int sn, final int tsNs) {
        event.reset(PccEventType.NACK, subtype, QPN, sn, tsNs);
        event.buffer().putInt(event.offset() + PccEventLayout.FIRST_SN_OFFSET, firstSn, ByteOrder.LITTLE_ENDIAN);
        return run();
    }

    /** NACK of PSN sn whose RTT request-send field carries an echoed transmit time (0 = none). */
    PccResult nackEcho(final int subtype, final int sn, final int tsNs, final int echoNs) {
        event.reset(PccEventType.NACK, subtype, QPN, sn, tsNs).rtt(echoNs, 0, 0);
        return run();
    }

    PccResult cnp(final int tsNs) {
        event.reset(PccEventType.CNP, PccEventType.SUBTYPE_NONE, QPN, 0, tsNs);
        return run();
    }

    PccResult timer(final int tsNs) {
        event.reset(PccEventType.TIMER, PccEventType.SUBTYPE_NONE, QPN, 0, tsNs);
        return run();
    }

    PccResult tx(final int lastSn, final int bytes, final int packets, final int tsNs) {
        event.reset(PccEventType.TX_BURST, PccEventType.SUBTYPE_NONE, QPN, lastSn, tsNs).tx(bytes, packets);
        return run();
    }

    PccResult rttResponse(final int tsNs, final int requestSendNs, final int requestReceiveNs, final int responseSendNs) {
        event.reset(PccEventType.RTT_RESPONSE, PccEventType.SUBTYPE_NONE, QPN, 0, tsNs)
            .rtt(requestSendNs, requestReceiveNs, responseSendNs);
        return run();
    }
}
