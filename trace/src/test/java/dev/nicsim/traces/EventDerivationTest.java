package dev.nicsim.traces;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PCC events derived from captures, counted and typed by hand from the opcodes: first from the
 * project's fixtures ({@link Fixtures}), then from the real captures beside the repository (skipped
 * when absent).
 *
 * <p>The Soft-RoCE-like fixture, times after its first packet, requester 192.168.7.5 (QP 0x11),
 * responder 192.168.7.4 (QP 0x12), P = 0xABCDEF = 11259375:
 * <pre>
 *   #1-3  UD SEND Only (100) on QP1 (CM)              -> no flow
 *   #4    RDMA WRITE Only (10) PSN P A=1, t = 1000 us, 18 payload bytes
 *   #5    Acknowledge (17) PSN P to QP 0x11, AETH 0x1F MSN 1, t = 1020 us
 *   #6    RDMA READ Request (12) PSN P+1 A=1, t = 1600 us, no payload
 *   #7    READ Response First (13) PSN P+1, t = 1619 us
 *   #8-10 READ Response Middle x2, Last                  -> no event
 *   #11-12 UD SEND Only                                   -> no flow
 * </pre>
 * Events with the default 10 us burst gap: TX_BURST(#4: 18 bytes, 1 packet; closed by #5, 20 us
 * later), ACK(#5), RTT_RESPONSE(#4 -> #5), TX_BURST(#6: 0 bytes, 1 packet; closed by #7, 19 us
 * later), RTT_RESPONSE(#6 -> #7) = 5 events, all for flow 0x11 (the QPN the ACK goes to) on port 0
 * (192.168.7.5 is the first requester address seen). The real softroce-write-read.pcap has the
 * same shape: WRITE at 4686 us with PSN 9209053, ACK 4706 us, READ 5320 us, response 5339 us, both
 * QPs 0x11.
 */
class EventDerivationTest {

    /** A copied event and its time. */
    private record Ev(long timePs, int type, int subtype, int port, int flags, int flow, int sn, int firstSn,
                      int tsNs, int firstTsNs, int txBytes, int txPackets, int rttSend, int rttRecv, int rttRespSend) {
    }

    private static final class Collector implements PccEventSink {
        final List<Ev> events = new ArrayList<>();

        @Override
        public void onEvent(final PccEvent e, final long timePs) {
            events.add(new Ev(timePs, e.type(), e.subtype(), e.port(), e.flags(), e.flowId(), e.sn(), e.firstSn(),
                e.timestampNs(), e.firstTimestampNs(), e.txBytes(), e.txPackets(), e.rttRequestSendNs(),
                e.rttRequestReceiveNs(), e.rttResponseSendNs()));
        }
    }

    /** Events of a real capture beside the repository (skips when absent). */
    private static Collector derive(final String file, final long gapNs) throws CaptureException {
        final Collector c = new Collector();
        new PccEventDeriver(c, gapNs, PccEventDeriver.DEFAULT_PAIRING_WAIT_NS, true)
            .derive(new CaptureDecoder(), TestPaths.sharedCapture(file));
        return c;
    }

    /** Events of a fixture held in memory. */
    private static Collector derive(final byte[] capture, final long gapNs) throws CaptureException {
        final Collector c = new Collector();
        final PccEventDeriver d = new PccEventDeriver(c, gapNs, PccEventDeriver.DEFAULT_PAIRING_WAIT_NS, true);
        new CaptureDecoder().decode("fixture", capture, d);
        d.finish();
        return c;
    }

    private static void assertSoftroceEvents(final List<Ev> ev, final int flow, final int writePsn,
                                             final long writeUs, final long ackUs, final long readUs, final long respUs) {
        assertEquals(5, ev.size(), ev.toString());
        final Ev tx1 = ev.get(0);
        assertEquals(PccEventType.TX_BURST, tx1.type);
        assertEquals(writeUs * 1_000_000, tx1.timePs);
        assertEquals(flow, tx1.flow);
        assertEquals(0, tx1.port);
        assertEquals(PccEventLayout.FLAG_FIRST_IN_FLOW, tx1.flags);
        assertEquals(writePsn, tx1.sn);
        assertEquals(writePsn, tx1.firstSn);
        assertEquals(18, tx1.txBytes);                 // RETH DMA length 0x12
        assertEquals(1, tx1.txPackets);
        assertEquals((int) (writeUs * 1_000), tx1.tsNs);
        assertEquals((int) (writeUs * 1_000), tx1.firstTsNs);

        final Ev ack = ev.get(1);
        assertEquals(PccEventType.ACK, ack.type);
        assertEquals(ackUs * 1_000_000, ack.timePs);
        assertEquals(flow, ack.flow);
        assertEquals(0, ack.flags);
        assertEquals(writePsn, ack.sn);
        assertEquals(writePsn, ack.firstSn);          // the first ACK newly acknowledges the WRITE only
        assertEquals((int) (writeUs * 1_000), ack.rttSend); // echo of the WRITE's capture time

        final Ev rtt1 = ev.get(2);
        assertEquals(PccEventType.RTT_RESPONSE, rtt1.type);
        assertEquals(ackUs * 1_000_000, rtt1.timePs);
        assertEquals(writePsn, rtt1.sn);               // highest PSN sent so far
        assertEquals((int) (writeUs * 1_000), rtt1.rttSend);
        // turnaround unknown at one capture point: receive = response send = midpoint
        final int mid1 = (int) ((writeUs + ackUs) * 1_000 / 2);
        assertEquals(mid1, rtt1.rttRecv);
        assertEquals(mid1, rtt1.rttRespSend);

        final Ev tx2 = ev.get(3);
        assertEquals(PccEventType.TX_BURST, tx2.type);
        assertEquals(readUs * 1_000_000, tx2.timePs);
        assertEquals(0, tx2.flags);
        assertEquals(writePsn + 1, tx2.sn);            // READ request PSN
        assertEquals(0, tx2.txBytes);                  // a READ request carries no payload
        assertEquals(1, tx2.txPackets);

        final Ev rtt2 = ev.get(4);
        assertEquals(PccEventType.RTT_RESPONSE, rtt2.type);
        assertEquals(respUs * 1_000_000, rtt2.timePs);
        assertEquals(writePsn + 1, rtt2.sn);
        assertEquals((int) (readUs * 1_000), rtt2.rttSend);
        final int mid2 = (int) ((readUs + respUs) * 1_000 / 2);
        assertEquals(mid2, rtt2.rttRecv);
        for (final Ev e : ev) {
            assertEquals(flow, e.flow);
        }
    }

    /** The deriver's counters after a Soft-RoCE WRITE + READ exchange: 2 TX, 1 ACK, 2 RTT; 5 UD SENDs without flow. */
    private static void assertSoftroceCounters(final PccEventDeriver d, final String requester) {
        assertEquals(2, d.events(PccEventType.TX_BURST));
        assertEquals(1, d.events(PccEventType.ACK));
        assertEquals(0, d.events(PccEventType.NACK));
        assertEquals(0, d.events(PccEventType.CNP));
        assertEquals(2, d.events(PccEventType.RTT_RESPONSE));
        assertEquals(5, d.packetsWithoutFlow());      // the 5 UD SENDs on QP1
        assertEquals(0, d.duplicateAcks());
        assertEquals(0, d.txBurstsUnpaired());
        assertEquals(requester, d.endpointAddress(0));
    }

    @Test
    void softroceFixtureGivesFiveEventsByHand() throws CaptureException {
        final Collector c = new Collector();
        final PccEventDeriver d = new PccEventDeriver(c);
        final CaptureStats s = new CaptureDecoder().decode("fixture", Fixtures.softroceWriteRead(), d);
        d.finish();
        assertEquals(12, s.transportPackets());
        assertSoftroceEvents(c.events, 0x11, Fixtures.SOFTROCE_PSN, 1_000, 1_020, 1_600, 1_619);
        assertSoftroceCounters(d, "192.168.7.5");
    }

    @Test
    void aWiderGapHoldsTheAckUntilTheBurstEndsAndKeepsTimeOrder() throws CaptureException {
        // gap 50 us: the WRITE's burst is still open when the ACK arrives 20 us later, so ACK and
        // RTT_RESPONSE wait in the reorder ring; the READ request 600 us after the WRITE closes the
        // burst and the TX_BURST is placed before them: the same 5 events in the same order
        final Collector c = derive(Fixtures.softroceWriteRead(), 50_000);
        assertSoftroceEvents(c.events, 0x11, Fixtures.SOFTROCE_PSN, 1_000, 1_020, 1_600, 1_619);
        // gap 1 ms: WRITE (1000 us) and READ request (1600 us) are 600 us apart, so they form one burst
        // of 2 packets, 18 bytes, PSNs P..P+1, emitted at its last packet (1600 us): after the ACK and
        // RTT_RESPONSE of 1020 us, before the RTT_RESPONSE of 1619 us = 4 events
        final Collector wide = derive(Fixtures.softroceWriteRead(), 1_000_000);
        assertEquals(4, wide.events.size(), wide.events.toString());
        assertEquals(PccEventType.ACK, wide.events.get(0).type);
        assertEquals(PccEventType.RTT_RESPONSE, wide.events.get(1).type);
        final Ev tx = wide.events.get(2);
        assertEquals(PccEventType.TX_BURST, tx.type);
        assertEquals(2, tx.txPackets);
        assertEquals(18, tx.txBytes);
        assertEquals(Fixtures.SOFTROCE_PSN, tx.firstSn);
        assertEquals(Fixtures.SOFTROCE_PSN + 1, tx.sn);
        assertEquals(1_000_000, tx.firstTsNs);
        assertEquals(1_600_000, tx.tsNs);
        assertEquals(PccEventType.RTT_RESPONSE, wide.events.get(3).type);
        // the ACK is the flow's first event here
        assertEquals(PccEventLayout.FLAG_FIRST_IN_FLOW, wide.events.get(0).flags);
        for (int i = 1; i < wide.events.size(); i++) {
            assertTrue(wide.events.get(i).timePs >= wide.events.get(i - 1).timePs, "time order");
        }
    }

    @Test
    void withArpTheRequesterQpnComesFromTheAck() throws CaptureException {
        // the exchange on 10.1.1.25 -> .24: requests go to QP 0x11 (responder), the ACK and the READ
        // responses to QP 0x17 (requester): every event names flow 0x17. Time 0 is the first RoCE packet
        // (UD #1, 100 us after the first record, an ARP request, which the deriver never sees), so the
        // times are the plain exchange's: WRITE 1000 us, ACK 1020, READ 1600, response 1619; PSN
        // 0xC0FFEE = 12648430
        final Collector c = derive(Fixtures.softroceWriteReadWithArp(), PccEventDeriver.DEFAULT_BURST_GAP_NS);
        assertSoftroceEvents(c.events, 0x17, Fixtures.ARP_PSN, 1_000, 1_020, 1_600, 1_619);
    }

    @Test
    void withoutResponsesTxBurstsFallBackToTheResponderQpn() throws CaptureException {
        // keep only IPv4 frames from 10.1.1.25 (the requester): no ACK / READ response pairs the request
        // stream, so the 2 TX_BURSTs carry the responder QPN 0x11 and count as unpaired; no RTT samples
        final RawCapture raw = RawCapture.parse(Fixtures.softroceWriteReadWithArp());
        final RawCapture requesterOnly = raw.filter(r -> r.data().length > 33 && r.data()[12] == 0x08 && r.data()[13] == 0
            && (r.data()[29] & 0xFF) == 25);
        assertEquals(5, requesterOnly.records.size()); // UD #1, #3, #11, WRITE, READ request
        final Collector c = new Collector();
        final PccEventDeriver d = new PccEventDeriver(c);
        new CaptureDecoder().decode("requester-only", requesterOnly.toPcap(ByteOrder.LITTLE_ENDIAN, false), d);
        d.finish();
        assertEquals(2, c.events.size(), c.events.toString());
        for (final Ev e : c.events) {
            assertEquals(PccEventType.TX_BURST, e.type);
            assertEquals(0x11, e.flow);
        }
        assertEquals(2, d.txBurstsUnpaired());
    }

    @Test
    void cnpNamesItsQp() throws CaptureException {
        // one CNP to QP 0x2A5 with BECN: a CNP event for flow 0x2A5, BECN and first-in-flow flags,
        // sn 0 (nothing sent by that flow in the capture), at time 0 (the capture's only packet)
        final Collector c = derive(Fixtures.cnpPcapng(), PccEventDeriver.DEFAULT_BURST_GAP_NS);
        assertEquals(1, c.events.size());
        final Ev e = c.events.get(0);
        assertEquals(PccEventType.CNP, e.type);
        assertEquals(Fixtures.CNP_QP, e.flow);
        assertEquals(PccEventLayout.FLAG_BECN | PccEventLayout.FLAG_FIRST_IN_FLOW, e.flags);
        assertEquals(0, e.sn);
        assertEquals(0, e.timePs);
    }

    @Test
    void infinibandSendsAndAcks() throws CaptureException {
        // the IB fixture: 4 RC SEND Only (A=1) from LIDs 4 (to QP 0xfc0407) and 2 (to QP 0x890407), each a
        // second from the next: each its own burst (4 TX_BURST); 3 ACKs, each new and answering its SEND
        // (3 ACK + 3 RTT_RESPONSE) = 10 events; the 3 UD packets give none
        final Collector c = new Collector();
        final PccEventDeriver d = new PccEventDeriver(c);
        new CaptureDecoder().decode("ib", Fixtures.infinibandErf(), d);
        d.finish();
        assertEquals(4, d.events(PccEventType.TX_BURST));
        assertEquals(3, d.events(PccEventType.ACK));
        assertEquals(3, d.events(PccEventType.RTT_RESPONSE));
        assertEquals(10, c.events.size(), c.events.toString());
        assertEquals(3, d.packetsWithoutFlow());
        assertEquals(0, d.txBurstsUnpaired());
        // times after packet #1 (S + 1/8 s): SEND #3 at 1.375 s, its ACK at 1.375 s + 976,562 ns
        final Ev tx = c.events.get(0);
        assertEquals(PccEventType.TX_BURST, tx.type);
        assertEquals(0x87_0408, tx.flow);              // the QPN its ACK goes to
        assertEquals(0, tx.port);                      // LID 4: first requester address
        assertEquals(1_375_000_000_000L, tx.timePs);
        assertEquals(82, tx.txBytes);
        final Ev ack = c.events.get(1);
        assertEquals(PccEventType.ACK, ack.type);
        assertEquals(1_375_976_562_000L, ack.timePs);
        assertEquals(13_896_277, ack.sn);
        assertEquals(1_375_000_000, ack.rttSend);
        final Ev rtt = c.events.get(2);
        assertEquals(PccEventType.RTT_RESPONSE, rtt.type);
        assertEquals(1_375_488_281, rtt.rttRecv);     // midpoint (1,375,000,000 + 1,375,976,562) / 2
        // the last SEND (#9, PSN 12391884 from LID 2) is unanswered: its stream was paired by ACK #8
        final Ev last = c.events.get(9);
        assertEquals(PccEventType.TX_BURST, last.type);
        assertEquals(12_391_884, last.sn);
        assertEquals(0x6C_004A, last.flow);
        assertEquals(1, last.port);                    // LID 2: second requester address
        assertEquals(4_375_000_000_000L, last.timePs);  // S + 4.5 s - (S + 0.125 s)
        int acks870408 = 0;
        for (final Ev e : c.events) {
            if (e.type == PccEventType.ACK && e.flow == 0x87_0408) {
                acks870408++;
            }
        }
        assertEquals(2, acks870408);
    }

    // ---------------------------------------------------------------- the real captures (../shared)

    @Test
    void realSoftroceWriteReadGivesFiveEventsByHand() throws CaptureException {
        final Collector c = new Collector();
        final PccEventDeriver d = new PccEventDeriver(c);
        final CaptureStats s = d.derive(new CaptureDecoder(), TestPaths.sharedCapture("softroce-write-read.pcap"));
        assertEquals(12, s.transportPackets());
        // times: #4 558857 - 554171 = 4686 us, #5 4706 us, #6 5320 us, #7 5339 us; PSN 0x8C84DD = 9209053
        assertSoftroceEvents(c.events, 0x11, 9_209_053, 4_686, 4_706, 5_320, 5_339);
        assertSoftroceCounters(d, "192.168.65.5");
    }

    @Test
    void realWithArpTheRequesterQpnComesFromTheAck() throws CaptureException {
        // the same exchange on 192.168.2.25 -> .24: requests go to QP 0x11 (responder), the ACK and the
        // READ responses to QP 0x17 (requester): every event names flow 0x17.
        // times from packet 1 (1766338145.513608 s): #4 518062 -> 4454 us, #5 4471 us, #6 5170 us, #7 5184 us;
        // PSN 0xC23298 = 12726936
        final Collector c = derive("softroce-write-read-with-arp.pcap", PccEventDeriver.DEFAULT_BURST_GAP_NS);
        assertSoftroceEvents(c.events, 0x17, 12_726_936, 4_454, 4_471, 5_170, 5_184);
    }

    @Test
    void realCnpNamesItsQp() throws CaptureException {
        // one CNP to QP 0x118 with BECN: a CNP event for flow 0x118, BECN and first-in-flow flags,
        // sn 0 (nothing sent by that flow in the capture), at time 0 (the capture's only packet)
        final Collector c = derive("cnp-connectx4lx.pcap", PccEventDeriver.DEFAULT_BURST_GAP_NS);
        assertEquals(1, c.events.size());
        final Ev e = c.events.get(0);
        assertEquals(PccEventType.CNP, e.type);
        assertEquals(0x118, e.flow);
        assertEquals(PccEventLayout.FLAG_BECN | PccEventLayout.FLAG_FIRST_IN_FLOW, e.flags);
        assertEquals(0, e.sn);
        assertEquals(0, e.timePs);
    }

    @Test
    void realInfinibandSendsAndAcks() throws CaptureException {
        // 10 RC SEND Only and 9 ACKs on three requester QPs (ACK destinations 0x870408 x6, 0x6c004a x2,
        // 0x890408 x1); every SEND is seconds from the next one of its stream, so each is its own burst
        // (10 TX_BURST); every ACK is new (9 ACK) and answers a SEND with AckReq (9 RTT_RESPONSE);
        // the last SEND (packet 43, PSN 7545641 to QP 0x6c004b) is unanswered
        final Collector c = new Collector();
        final PccEventDeriver d = new PccEventDeriver(c);
        d.derive(new CaptureDecoder(), TestPaths.sharedCapture("infiniband-erf.pcap"));
        assertEquals(10, d.events(PccEventType.TX_BURST));
        assertEquals(9, d.events(PccEventType.ACK));
        assertEquals(9, d.events(PccEventType.RTT_RESPONSE));
        assertEquals(28, c.events.size());
        assertEquals(24, d.packetsWithoutFlow());     // the UD management packets
        assertEquals(0, d.txBurstsUnpaired());
        final Ev last = c.events.get(27);
        assertEquals(PccEventType.TX_BURST, last.type);
        assertEquals(7_545_641, last.sn);
        assertEquals(0x890408, last.flow);             // paired by the ACK of PSN 7545640 (packet 38)
        int acks870408 = 0;
        for (final Ev e : c.events) {
            if (e.type == PccEventType.ACK && e.flow == 0x870408) {
                acks870408++;
            }
        }
        assertEquals(6, acks870408);
    }

    @Test
    void badConfigurationIsRejectedNamingTheField() {
        final PccEventSink sink = (e, t) -> { };
        final IllegalArgumentException gap = assertThrows(IllegalArgumentException.class,
            () -> new PccEventDeriver(sink, 0, 0, true));
        assertTrue(gap.getMessage().startsWith("burstGapNs"), gap.getMessage());
        final IllegalArgumentException wait = assertThrows(IllegalArgumentException.class,
            () -> new PccEventDeriver(sink, 1_000, -1, true));
        assertTrue(wait.getMessage().startsWith("pairingWaitNs"), wait.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PccEventDeriver(null));
    }

    @Test
    void eventRecordsAreWrittenInThePccLayout() throws CaptureException {
        // the sink sees a flyweight over a 64-byte little-endian record: copy it and read it raw
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
        final PccEvent kept = new PccEvent().wrap(copy, 0);
        final PccEventDeriver d = new PccEventDeriver((e, t) -> {
            if (e.type() == PccEventType.TX_BURST && kept.txPackets() == 0) {
                kept.copyFrom(e);
            }
        });
        new CaptureDecoder().decode("fixture", Fixtures.softroceWriteRead(), d);
        d.finish();
        // the first TX_BURST of the fixture: flow 0x11, the WRITE's 18 bytes, at 1000 us
        assertEquals(PccEventType.TX_BURST, copy.getByte(PccEventLayout.TYPE_OFFSET));
        assertEquals(0x11, copy.getInt(PccEventLayout.FLOW_ID_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals(18, copy.getInt(PccEventLayout.TX_BYTES_OFFSET, ByteOrder.LITTLE_ENDIAN));
        assertEquals(1_000_000, copy.getInt(PccEventLayout.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN));
    }
}
