package dev.nicsim.traces;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * House rule "hot paths allocate nothing in steady state": reading, decoding (with the ICRC check)
 * and deriving events from a long capture allocates nothing per packet once the buffers, tables and
 * reorder ring have reached their peak in the first half.
 *
 * <p>The capture (written by {@link PcapWriter}): one requester 10.0.0.1 QP -> 10.0.0.2 QP 0x33 sends
 * RDMA WRITE Middle packets of 1024 bytes 1 us apart in bursts of 16 with 20 us between bursts;
 * every 4th packet asks for an ACK, which the responder sends 5 us later; every 100th packet is
 * followed by a CNP. 20,000 requests, 5,000 ACKs, 200 CNPs. The second half (12,600 frames, several
 * thousand events) is measured: any per-packet allocation (at least 16 bytes each) would exceed
 * 100,000 bytes; the bound is 8,192 (JIT deoptimisation may allocate a little once, as in
 * nic-model's test of the same rule).
 */
class SteadyStateAllocationTest {

    private static byte[] capture() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(out, 0)) {
            final RocePacket req = new RocePacket();
            req.srcIpv4(0x0A00_0001).dstIpv4(0x0A00_0002);
            req.opcode = 0x07;
            req.pkey = 0xFFFF;
            req.destQp = 0x33;
            req.payloadBytes = 1024;
            final RocePacket ack = new RocePacket();
            ack.srcIpv4(0x0A00_0002).dstIpv4(0x0A00_0001);
            ack.opcode = IbOpcodes.RC_ACKNOWLEDGE;
            ack.pkey = 0xFFFF;
            ack.destQp = 0x44;
            ack.aethSyndrome = 0x1F;
            final RocePacket cnp = new RocePacket();
            cnp.srcIpv4(0x0A00_0002).dstIpv4(0x0A00_0001);
            cnp.opcode = IbOpcodes.CNP;
            cnp.destQp = 0x44;
            cnp.becn = true;
            long t = 0;
            long pendingAckPs = -1;
            int pendingPsn = 0;
            for (int i = 0; i < 20_000; i++) {
                t += i % 16 == 0 ? 20_000_000L : 1_000_000L;
                if (pendingAckPs >= 0 && pendingAckPs <= t) {
                    ack.psn = pendingPsn;
                    ack.aethMsn = pendingPsn;
                    w.writeRoceV2(ack, pendingAckPs);
                    pendingAckPs = -1;
                }
                req.psn = i;
                req.ackReq = i % 4 == 3;
                w.writeRoceV2(req, t);
                if (req.ackReq) {
                    pendingAckPs = t + 500_000L;
                    pendingPsn = i;
                }
                if (i % 100 == 99) {
                    w.writeRoceV2(cnp, t + 100_000L);
                }
            }
            ack.psn = pendingPsn;                      // the ACK of the last request
            ack.aethMsn = pendingPsn;
            w.writeRoceV2(ack, pendingAckPs);
        }
        return out.toByteArray();
    }

    @Test
    void decodingAndDerivingAllocateNothingPerPacketAfterWarmUp() throws CaptureException {
        final byte[] data = capture();
        final com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long[] events = new long[PccEventType.COUNT];
        final PccEventDeriver deriver = new PccEventDeriver((e, t) -> events[e.type()]++);
        final long[] mark = {0, 0};
        final RocePacketHandler measured = p -> {
            if (p.packetNumber == 12_600) {
                mark[0] = mx.getCurrentThreadAllocatedBytes();
            }
            deriver.onPacket(p);
        };
        final CaptureStats s = new CaptureDecoder().decode("steady", data, measured);
        final long allocated = mx.getCurrentThreadAllocatedBytes() - mark[0];
        deriver.finish();
        // 20,000 requests + 5,000 ACKs (one per 4 requests) + 200 CNPs = 25,200 frames
        assertEquals(25_200, s.packets());
        assertEquals(25_200, s.icrcOk());
        // 20,000 requests in bursts of 16 = 1,250 TX_BURSTs; 5,000 ACKs, each new, each answering an
        // AckReq -> 5,000 ACK + 5,000 RTT_RESPONSE; 200 CNPs
        assertEquals(1_250, events[PccEventType.TX_BURST]);
        assertEquals(5_000, events[PccEventType.ACK]);
        assertEquals(5_000, events[PccEventType.RTT_RESPONSE]);
        assertEquals(200, events[PccEventType.CNP]);
        assertTrue(allocated < 8_192, "bytes allocated in the second half: " + allocated);
    }
}
