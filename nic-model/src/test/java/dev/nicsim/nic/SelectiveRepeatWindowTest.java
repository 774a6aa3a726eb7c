package dev.nicsim.nic;

import dev.nicsim.sim.CounterRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bytes a selective-repeat sender counts against its window ({@link SelectiveRepeat#outstandingBytes}),
 * as uet-htsim's {@code UecSrc::_in_flight}: a packet sent adds its bytes, a packet the receiver holds
 * (SACKed) or declared lost (NACK, timeout) takes them off, a resend adds them again. A 10,000-byte
 * WRITE with MTU 1,024 is 10 packets, 9 of 1,024 B and a last of 784 B.
 */
class SelectiveRepeatWindowTest {
    private static final int MTU = 1024;

    private static Qp requester() {
        final Qp q = new Qp();
        q.init(Qp.REQUESTER, 1, 2, 1, 1, MessageOp.WRITE, 10_000, MTU, 0xC000, 100_000_000_000L, 0);
        q.initSelectiveRepeat(64);
        q.windowBytes = 4 * MTU;
        return q;
    }

    private static SelectiveRepeat sr() {
        final NicConfig c = new NicConfig();
        c.lossRecovery = NicConfig.LOSS_RECOVERY_SELECTIVE_REPEAT;
        c.srWindowPackets = 64;
        c.srLossThresholdPackets = 0;
        return new SelectiveRepeat(c, new NicCounters(new CounterRegistry(), "a"));
    }

    @Test
    void sackedAndLostPacketsLeaveTheWindowAndResendsReturnToIt() {
        final SelectiveRepeat sr = sr();
        final Qp q = requester();
        for (int i = 0; i < 4; i++) {
            assertTrue(ReactionPoint.windowOpen(q), "packet " + i);
            sr.onSent(q, i);
        }
        // 0..3 out: 4,096 B, the window (4 packets) is full
        assertEquals(4096, SelectiveRepeat.outstandingBytes(q));
        assertFalse(ReactionPoint.windowOpen(q));
        // an ACK with cumulative point below 0 (index -1) SACKing 1 and 2 (bits 1, 2 = indexes 1, 2):
        // 0 and 3 remain, 2,048 B; two more packets fit
        sr.onAck(q, -1, 0b110L);
        assertEquals(2048, SelectiveRepeat.outstandingBytes(q));
        assertEquals(0, q.sndUna);
        assertTrue(ReactionPoint.windowOpen(q));
        sr.onSent(q, 4);
        sr.onSent(q, 5);
        assertEquals(4096, SelectiveRepeat.outstandingBytes(q));
        assertFalse(ReactionPoint.windowOpen(q));
        // a NACK names 0 (trimmed): it leaves the window and waits; it is next to send, and fits
        assertTrue(sr.onNack(q, 0));
        assertEquals(3072, SelectiveRepeat.outstandingBytes(q));
        assertEquals(0, q.sndNxt);
        assertTrue(ReactionPoint.windowOpen(q));
        sr.onSent(q, 0);
        assertEquals(4096, SelectiveRepeat.outstandingBytes(q));
        assertEquals(6, q.sndNxt);
        // the cumulative ACK of 0..3 (index 3) with 5 SACKed (bit 1 = index 5): only 4 is out
        sr.onAck(q, 3, 0b10L);
        assertEquals(4, q.sndUna);
        assertEquals(1024, SelectiveRepeat.outstandingBytes(q));
        assertEquals(1024, q.srSackedBytes);
        // 6..8 go (4,096 B); the last packet, 784 B, waits for room
        sr.onSent(q, 6);
        sr.onSent(q, 7);
        sr.onSent(q, 8);
        assertEquals(4096, SelectiveRepeat.outstandingBytes(q));
        assertFalse(ReactionPoint.windowOpen(q));
        // the timeout declares 4 lost: 3,072 B; the resend of 4 is next and fits exactly
        sr.onTimeout(q);
        assertEquals(3072, SelectiveRepeat.outstandingBytes(q));
        assertEquals(4, q.sndNxt);
        assertTrue(ReactionPoint.windowOpen(q));
        // with the window shrunk to one packet it would not fit (3,072 + 1,024 > 1,024), but the
        // oldest unacknowledged packet always goes: otherwise nothing more is sent and no timer runs
        q.windowBytes = MTU;
        assertTrue(ReactionPoint.windowOpen(q));
        sr.onSent(q, 4);
        assertFalse(ReactionPoint.windowOpen(q));
        q.windowBytes = 4 * MTU;
        // everything up to 8 acknowledged: nothing out, the SACK and resend bytes are all released
        sr.onAck(q, 8, 0L);
        assertEquals(0, SelectiveRepeat.outstandingBytes(q));
        assertEquals(0, q.srSackedBytes);
        assertEquals(0, q.srRtxBytes);
        sr.onSent(q, 9);
        assertEquals(784, SelectiveRepeat.outstandingBytes(q));
    }
}
