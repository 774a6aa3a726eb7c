package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.pcc.Units;
import dev.nicsim.riscv.Memory;

import static dev.nicsim.microcode.firmware.FirmwareLayout.*;

/**
 * What the Java side writes into and reads from a hardware thread's mailbox and context line
 * before and after a firmware call: the marshalling half of the nicsim PCC ABI
 * ({@code firmware/include/nicsim_pcc_abi.h}, firmware/ABI.md; offsets in {@link FirmwareLayout}).
 * Events are written as DOCA's getters read them (multi-byte fields big-endian, ABI.md 4.1);
 * attributes, control words and results little-endian.
 *
 * <p>Thread-safety: stateless; the memory belongs to the thread that drives the NIC.
 */
final class FirmwareMailbox {
    private FirmwareMailbox() {
    }

    /**
     * Writes an event and its control words (call 0, now) into a mailbox.
     *
     * @param mem   the NIC's firmware memory
     * @param m     the mailbox's address
     * @param event the event
     */
    static void writeEvent(final Memory mem, final long m, final PccEvent event) {
        final int type = event.type();
        final long txBytes = event.txBytes() & 0xFFFF_FFFFL;
        // the event as DOCA getters read it: multi-byte fields big-endian (firmware/ABI.md §4.1)
        // flag byte (EV_FLAGS): DOCA's TX flags; nicsim sets RTT_REQ_SENT (4) on the first TX event after a probe
        final int docaFlags = type == PccEventType.TX_BURST && event.hasFlag(PccEventLayout.FLAG_RTT_REQ_SENT)
            ? DOCA_TX_FLAG_RTT_REQ_SENT : 0;
        mem.store(m + EV_TYPE, 4, (DOCA_TYPE[type] & 0xFF) | (event.subtype() & 0xFF) << 8 | (event.port() & 0xFF) << 16
            | docaFlags << 24);
        mem.store(m + EV_FLOW_TAG, 4, Integer.reverseBytes(event.flowId()));
        mem.store(m + EV_SN, 4, Integer.reverseBytes(event.sn()));
        mem.store(m + EV_TIMESTAMP, 4, Integer.reverseBytes(event.timestampNs()));
        mem.store(m + EV_FIRST_TIMESTAMP, 4, Integer.reverseBytes(event.firstTimestampNs()));
        mem.store(m + EV_FIRST_SN, 4, Integer.reverseBytes(event.firstSn()));
        mem.store(m + EV_NUM_COALESCED, 4, Integer.reverseBytes(event.numCoalesced()));
        mem.store(m + EV_SENT_32BYTES, 2, Short.reverseBytes((short) Math.min(0xFFFF, (txBytes + 31) / 32)));
        mem.store(m + EV_SENT_PKTS, 2, Short.reverseBytes((short) Math.min(0xFFFF, event.txPackets() & 0xFFFF_FFFFL)));
        mem.store(m + EV_RTT_REQ_SEND, 4, Integer.reverseBytes(event.rttRequestSendNs()));
        mem.store(m + EV_RTT_REQ_RECV, 4, Integer.reverseBytes(event.rttRequestReceiveNs()));
        mem.store(m + EV_RTT_RESP_SEND, 4, Integer.reverseBytes(event.rttResponseSendNs()));
        // bytes 44..55: NVIDIA's ev_spec_attr words (firmware/ABI.md 4.1): TX events roce_tx (first
        // timestamp, counters, QPN), RTT events the raw data of the hardware responder (its three timestamps)
        if (type == PccEventType.TX_BURST) {
            final int sent32 = (int) Math.min(0xFFFF, (txBytes + 31) / 32);
            final int sentPkts = (int) Math.min(0xFFFF, event.txPackets() & 0xFFFF_FFFFL);
            mem.store(m + EV_SPEC_ATTR, 4, Integer.reverseBytes(event.firstTimestampNs()));
            mem.store(m + EV_SPEC_ATTR + 4, 4, Integer.reverseBytes(sent32 | sentPkts << 16));
            mem.store(m + EV_SPEC_ATTR + 8, 4, Integer.reverseBytes(event.flowId() & 0xFF_FFFF));
        } else if (type == PccEventType.RTT_RESPONSE) {
            mem.store(m + EV_SPEC_ATTR, 4, Integer.reverseBytes(event.rttRequestSendNs()));
            mem.store(m + EV_SPEC_ATTR + 4, 4, Integer.reverseBytes(event.rttRequestReceiveNs()));
            mem.store(m + EV_SPEC_ATTR + 8, 4, Integer.reverseBytes(event.rttResponseSendNs()));
        } else {
            mem.store(m + EV_SPEC_ATTR, 4, 0);
            mem.store(m + EV_SPEC_ATTR + 4, 8, 0);
        }
        mem.store(m + EV_QPN, 4, Integer.reverseBytes(event.flowId()));
        mem.store(m + EV_NICSIM_FLAGS, 4, (event.flags() & 0xFF) | (type & 0xFF) << 8);
        mem.store(m + EV_TX_BYTES, 4, Integer.reverseBytes(event.txBytes()));
        mem.store(m + EV_TX_PACKETS, 4, Integer.reverseBytes(event.txPackets()));
        mem.store(m + EV_RESERVED, 8, 0);
        mem.store(m + AT_INITIAL_PSN, 4, 0);
        mem.store(m + AT_NOW_NS, 4, event.timestampNs());
        mem.store(m + CT_CALL, 4, CALL_EVENT);
        mem.store(m + CT_NOW_NS, 8, event.timestampNs() & 0xFFFF_FFFFL);
        mem.store(m + CT_NOW_US, 8, (event.timestampNs() & 0xFFFF_FFFFL) / Units.NS_PER_US);
    }

    /**
     * Clears a mailbox's event and attributes and writes a flow-start call (call 1).
     *
     * @param mem        the NIC's firmware memory
     * @param m          the mailbox's address
     * @param initialPsn the flow's first PSN, 24 bits
     * @param nowNs      simulated time, ns (32-bit wrap)
     */
    static void writeFlowInit(final Memory mem, final long m, final int initialPsn, final int nowNs) {
        for (int i = 0; i < 10; i++) {
            mem.store(m + 8L * i, 8, 0);
        }
        mem.store(m + AT_INITIAL_PSN, 4, initialPsn);
        mem.store(m + AT_NOW_NS, 4, nowNs);
        mem.store(m + CT_CALL, 4, CALL_FLOW_INIT);
        mem.store(m + CT_NOW_NS, 8, nowNs & 0xFFFF_FFFFL);
        mem.store(m + CT_NOW_US, 8, (nowNs & 0xFFFF_FFFFL) / Units.NS_PER_US);
    }

    /**
     * Writes a service call's control words (port info, host mailbox, NP packet).
     *
     * @param mem   the NIC's firmware memory
     * @param m     the mailbox's address
     * @param call  the {@code CALL_*} code
     * @param rank  the hardware thread's global rank, 0..255
     * @param nowNs simulated time, ns, at least 0 (the ns word keeps its low 32 bits, the us word all of it)
     * @param arg   the call's first argument
     * @param arg2  its second
     */
    static void writeServiceCall(final Memory mem, final long m, final int call, final int rank, final long nowNs,
                                 final int arg, final int arg2) {
        mem.store(m + CT_CALL, 4, call);
        mem.store(m + CT_THREAD_RANK, 4, rank);
        mem.store(m + CT_NOW_NS, 8, nowNs & 0xFFFF_FFFFL);
        mem.store(m + CT_NOW_US, 8, nowNs / Units.NS_PER_US);
        mem.store(m + CT_STATUS, 4, 0);
        mem.store(m + CT_ARG, 4, arg);
        mem.store(m + CT_ARG2, 4, arg2);
        mem.store(m + CT_OUT_SIZE, 4, 0);
        mem.store(m + CT_RETURN, 4, 0);
    }

    /**
     * Writes a flow's attributes, the "unchanged" result defaults and its context words before an
     * event or flow-start call.
     *
     * @param mem        the NIC's firmware memory
     * @param m          the mailbox's address
     * @param ctx        the thread's context line's address
     * @param rank       the hardware thread's global rank, 0..255
     * @param slot       the lowest slot of port 0 the firmware enabled, or -1 for none
     * @param attributes the flow's attributes
     * @param context    the flow's context
     */
    static void writeCall(final Memory mem, final long m, final long ctx, final int rank, final int slot,
                          final PccAttributes attributes, final PccContext context) {
        // the lowest enabled slot of port 0; the internal slot 15 when the firmware enabled none (DOCA still
        // calls doca_pcc_dev_user_algo, which hands slots it does not own to the default algorithm)
        mem.store(m + AT_SLOT_OVERLOAD, 4, (slot < 0 ? INTERNAL_SLOT : slot & 15) | (attributes.overloaded() ? 16 : 0));
        mem.store(m + AT_MTU, 4, attributes.mtuBytes());
        mem.store(m + AT_LINE_RATE, 8, attributes.lineRateBitsPerSec());
        mem.store(m + AT_BASE_RTT, 4, attributes.baseRttNs());
        mem.store(m + RS_RATE, 4, -1);
        mem.store(m + RS_RTT_REQ, 4, 0);
        mem.store(m + RS_WINDOW, 8, -1L);
        mem.store(m + RS_TIMER, 4, 0);
        mem.store(m + RS_FAST_START, 4, -1);
        mem.store(m + CT_THREAD_RANK, 4, rank);
        mem.store(m + CT_STATUS, 4, 0);
        final int words = context.words();
        for (int i = 0; i < words; i++) {
            mem.store(ctx + 4L * i, 4, context.get(i));
        }
    }

    /**
     * After a completed call: reads the context words and the result back. Every result is
     * unsigned (ABI.md 4.3): all ones means "unchanged", other values are clamped to what the model
     * takes ({@link FirmwareResults#decode}).
     *
     * @param mem     the NIC's firmware memory
     * @param m       the mailbox's address
     * @param ctx     the thread's context line's address
     * @param context receives the context words
     * @param result  receives the result
     * @return how many result fields were clamped
     */
    static int readBack(final Memory mem, final long m, final long ctx, final PccContext context, final PccResult result) {
        final int words = context.words();
        for (int i = 0; i < words; i++) {
            context.set(i, (int) mem.load(ctx + 4L * i, 4));
        }
        return FirmwareResults.decode((int) mem.load(m + RS_RATE, 4), (int) mem.load(m + RS_RTT_REQ, 4),
            mem.load(m + RS_WINDOW, 8), (int) mem.load(m + RS_TIMER, 4), (int) mem.load(m + RS_FAST_START, 4), result);
    }
}
