package dev.nicsim.nic;

/**
 * The RC operation a flow performs (IBTA Vol. 1 §9.4): one message of the flow's size.
 *
 * <p>Thread-safety: immutable.
 */
public enum MessageOp {
    /**
     * RDMA WRITE: the requester sends WRITE FIRST/MIDDLE/LAST/ONLY (0x06-0x0A) data packets, RETH on
     * FIRST and ONLY; the responder acknowledges them.
     */
    WRITE,
    /** SEND: the requester sends SEND FIRST/MIDDLE/LAST/ONLY (0x00-0x04) data packets, no RETH. */
    SEND,
    /**
     * RDMA READ: the requester sends one READ REQUEST (0x0C, RETH) and the responder returns READ
     * RESPONSE FIRST/MIDDLE/LAST/ONLY (0x0D-0x10) data packets.
     */
    READ
}
