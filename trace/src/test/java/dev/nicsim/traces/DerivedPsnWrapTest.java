package dev.nicsim.traces;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The deriver works on any first PSN and across the wrap at 2^24 (24-bit serial arithmetic,
 * RFC 1982): the same RDMA WRITE exchange starting at PSN 0, at 9,209,053 (where the real
 * Soft-RoCE capture starts) and at 2^24 - 10 (wrapping after its 10th packet) gives the same
 * events, with every sequence number shifted by the start.
 *
 * <p>The exchange, 10.0.0.1 QP 0x11 writing to 10.0.0.2 QP 0x22, times in us: 24 WRITE packets of
 * 1000 bytes, one every 1 us from t = 0 (packets 0..23); the responder ACKs every 4th packet 5 us
 * after it (ACK of packet 3 at 8 us, 7 at 12 us, ...); packet 12 is lost, so the ACK of 11 is
 * followed by a NAK (PSN sequence error) for 12 at 18 us; the requester goes back to 12 at 40 us
 * (a new burst: the 10 us burst gap closed the first one) and sends 12..23 again, ACKed at 55
 * (15), 59 (19) and 63 us (23). By hand: TX_BURST x2 (24 packets closed at 23 us, then 12 closed at
 * 51 us), ACK x6, NACK x1, and an RTT_RESPONSE for every ACK of a PSN sent with the AckReq bit
 * (every 4th packet): 6.
 */
class DerivedPsnWrapTest {
    private static final int MASK = 0xFF_FFFF;

    private record Ev(long timePs, int type, int subtype, int flow, int sn, int firstSn, int txBytes, int txPackets) {
    }

    private static List<Ev> derive(final int start) {
        final List<Ev> out = new ArrayList<>();
        final PccEventDeriver d = new PccEventDeriver((PccEvent e, long t) -> {
            final boolean hasFirst = e.type() == PccEventType.TX_BURST || e.type() == PccEventType.ACK;
            out.add(new Ev(t, e.type(), e.subtype(), e.flowId(), (e.sn() - start) & MASK,
                hasFirst ? (e.firstSn() - start) & MASK : -1, e.txBytes(), e.txPackets()));
        });
        final RocePacket p = new RocePacket();
        for (int t = 0; t < 24; t++) { // packet t at t us; ACKs of 3, 7, 11 at 8, 12, 16 us; NAK for 12 at 18 us
            if (t == 8 || t == 12 || t == 16) {
                ack(d, p, start, t - 5, t, true);
            }
            if (t == 18) {
                ack(d, p, start, 12, 18, false);
            }
            request(d, p, start, t, t);
        }
        for (int i = 12; i < 24; i++) { // go-back-N from 12 at 40 us (17 us after packet 23: a new burst)
            request(d, p, start, i, 40 + (i - 12));
        }
        ack(d, p, start, 15, 55, true);
        ack(d, p, start, 19, 59, true);
        ack(d, p, start, 23, 63, true);
        d.finish();
        return out;
    }

    private static void request(final PccEventDeriver d, final RocePacket p, final int start, final int index,
                                final long timeUs) {
        fill(p, 0x0A00_0001, 0x0A00_0002, 0x22, timeUs);
        p.opcode = index == 0 ? 6 : index == 23 ? 8 : 7; // RC RDMA WRITE First / Middle / Last
        p.psn = (start + index) & MASK;
        p.payloadBytes = 1000;
        p.ackReq = index % 4 == 3;
        d.onPacket(p);
    }

    private static void ack(final PccEventDeriver d, final RocePacket p, final int start, final int index,
                            final long timeUs, final boolean positive) {
        fill(p, 0x0A00_0002, 0x0A00_0001, 0x11, timeUs);
        p.opcode = 17;
        p.psn = (start + index) & MASK;
        p.hasAeth = true;
        p.aethClass = positive ? RocePacket.AETH_ACK : RocePacket.AETH_NAK;
        p.aethValue = positive ? 31 : RocePacket.NAK_PSN_SEQUENCE_ERROR;
        d.onPacket(p);
    }

    private static void fill(final RocePacket p, final int src, final int dst, final int destQp, final long timeUs) {
        p.kind = RocePacket.KIND_ROCE;
        p.encapsulation = RocePacket.ENCAP_ROCE_V2;
        p.srcIpv4(src);
        p.dstIpv4(dst);
        p.destQp = destQp;
        p.timeNs = 1_000_000_000_000L + timeUs * 1_000;
        p.payloadBytes = 0;
        p.ackReq = false;
        p.hasAeth = false;
        p.ecn = 2;
    }

    @Test
    void sameEventsForEveryFirstPsnShiftedByIt() {
        final List<Ev> reference = derive(0);
        final int[] byType = new int[PccEventType.COUNT];
        for (final Ev e : reference) {
            byType[e.type]++;
        }
        assertEquals(2, byType[PccEventType.TX_BURST]);
        assertEquals(6, byType[PccEventType.ACK]);
        assertEquals(1, byType[PccEventType.NACK]);
        assertEquals(6, byType[PccEventType.RTT_RESPONSE]);
        final List<Ev> bursts = reference.stream().filter(e -> e.type == PccEventType.TX_BURST).toList();
        assertEquals(new Ev(23_000_000, PccEventType.TX_BURST, 0, 0x11, 23, 0, 24_000, 24), bursts.get(0));
        assertEquals(new Ev(51_000_000, PccEventType.TX_BURST, 0, 0x11, 23, 12, 12_000, 12), bursts.get(1));
        final Ev nack = reference.stream().filter(e -> e.type == PccEventType.NACK).findFirst().orElseThrow();
        assertEquals(new Ev(18_000_000, PccEventType.NACK, PccEventType.NACK_OUT_OF_SEQUENCE, 0x11, 12, -1, 0, 0), nack);
        // each ACK newly acknowledges the 4 packets after the previous one: first sn = previous sn + 1
        assertEquals(List.of(0, 4, 8, 12, 16, 20), reference.stream().filter(e -> e.type == PccEventType.ACK)
            .map(Ev::firstSn).toList());
        for (final int start : new int[] {9_209_053, (1 << 24) - 10}) {
            assertEquals(reference, derive(start), "first PSN " + start);
        }
    }
}
