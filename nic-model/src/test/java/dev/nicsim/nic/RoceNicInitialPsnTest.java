package dev.nicsim.nic;

import dev.nicsim.pcc.PccEventType;
import dev.nicsim.sim.Packet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A flow whose PSNs start anywhere in 0..2^24 - 1 and wrap (IBTA vol. 1 §9.7.1). The start here is
 * 2^24 - 5 = 16,777,211, so a 10-packet message carries PSNs 16,777,211..16,777,215, 0..4. The
 * transport must behave exactly as for a flow starting at 0 ({@link RoceNicTransportTest}: same
 * times, counters and retransmissions), with every PSN on the wire and in the PCC events shifted
 * by the start modulo 2^24.
 */
class RoceNicInitialPsnTest {
    private static final int START = (1 << 24) - 5;

    private static int psn(final int index) {
        return (START + index) & 0xFF_FFFF;
    }

    @Test
    void goBackNAcrossTheWrapResendsFromTheMissingPsn() {
        final Bench t = new Bench();
        // drop the first transmission of the 4th packet, PSN 16,777,214 (just before the wrap)
        t.ab.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == psn(3) && n == 1 ? Tap.DROP : Tap.FORWARD;
        t.start(1, MessageOp.WRITE, 10 * 1024, START);
        t.run();
        // the numbers of RoceNicTransportTest.nakCausesGoBackNFromTheMissingPsn, PSNs shifted
        assertEquals(6, t.counter("b", "out_of_sequence"));
        assertEquals(1, t.counter("b", "tx_nak_packets"));
        assertEquals(1, t.counter("a", "packet_seq_err"));
        assertEquals(7, t.counter("a", "roce_adp_retrans"));
        assertEquals(0, t.counter("b", "duplicate_request"));
        assertEquals(List.of(16_777_211, 16_777_212, 16_777_213, 16_777_214, 16_777_215, 0, 1, 2, 3, 4,
                16_777_214, 16_777_215, 0, 1, 2, 3, 4),
            t.dataAtB().stream().map(Tap.Seen::psn).toList());
        final List<Tap.Seen> naks = t.ba.seen.stream()
            .filter(s -> s.kind() == Packet.KIND_ACK && s.syndrome() == Packet.AETH_NAK_PSN_SEQ_ERR).toList();
        assertEquals(List.of(16_777_214), naks.stream().map(Tap.Seen::psn).toList());
        assertEquals(2_452_480L, naks.get(0).timePs());
        assertEquals(5_081_280L, t.completionPs());
        // the algorithm sees wire PSNs: NACK sn = 16,777,214; the first ACK acknowledges from the first PSN
        assertEquals(16_777_214, t.alg.events(PccEventType.NACK).get(0).sn());
        final FixedAlgorithm.Ev firstAck = t.alg.events(PccEventType.ACK).get(0);
        assertEquals(START, firstAck.firstSn());
        assertEquals(START, firstAck.sn());
        final List<FixedAlgorithm.Ev> acks = t.alg.events(PccEventType.ACK);
        assertEquals(4, acks.get(acks.size() - 1).sn()); // the last ACK: PSN of packet 9 = 4
    }

    @Test
    void readAcrossTheWrapReissuesTheRequestFromTheExpectedPsn() {
        final Bench t = new Bench();
        final int start = (1 << 24) - 2;
        t.ba.rule = (p, n) -> p.kind == Packet.KIND_DATA && p.psn == 16_777_215 && n == 1 ? Tap.DROP : Tap.FORWARD;
        t.start(1, MessageOp.READ, 4096, start);
        t.run();
        // RoceNicTransportTest.lostReadResponseCausesImpliedNakAndReissuedRequest, starting at
        // 16,777,214: responses 16,777,214, 16,777,215 (dropped), 0, 1; re-issued from 16,777,215
        assertEquals(1, t.counter("a", "implied_nak_seq_err"));
        assertEquals(1, t.counter("b", "duplicate_request"));
        assertEquals(List.of(16_777_214, 16_777_215),
            t.ab.ofKind(Packet.KIND_READ_REQUEST).stream().map(Tap.Seen::psn).toList());
        assertEquals(List.of(16_777_214, 16_777_215, 0, 1, 16_777_215, 0, 1),
            t.ba.ofKind(Packet.KIND_DATA).stream().map(Tap.Seen::psn).toList());
        assertEquals(4_550_080L, t.completionPs());
    }

    @Test
    void aFirstPsnOutside24BitsIsRejected() {
        final Bench t = new Bench();
        assertThrows(IllegalArgumentException.class, () -> t.start(1, MessageOp.WRITE, 10, 1 << 24));
        assertThrows(IllegalArgumentException.class, () -> t.start(1, MessageOp.WRITE, 10, -1));
    }
}
