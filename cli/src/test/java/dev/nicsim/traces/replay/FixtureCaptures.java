package dev.nicsim.traces.replay;

import dev.nicsim.traces.IbOpcodes;
import dev.nicsim.traces.PcapWriter;
import dev.nicsim.traces.RocePacket;

import java.nio.file.Path;

/**
 * Captures the project owns, written with {@link PcapWriter} into a test's temporary directory, so
 * the trace and replay commands are covered in a clone without the real captures (the traces
 * module's {@code Fixtures} holds the same exchange with its full walk-through).
 *
 * <p>Soft-RoCE-like exchange ({@link #softroce}): requester 192.168.7.5 QP 0x11, responder
 * 192.168.7.4 QP 0x12, times after the first packet:
 * <pre>
 *   #1-3 UD SEND Only (100) on QP1 at 0, 150, 300 us          (no flow)
 *   #4   RDMA WRITE Only (10) PSN 0xABCDEF = 11259375, A=1, 18 bytes, 1000 us
 *   #5   Acknowledge (17) PSN 11259375 to QP 0x11, AETH 0x1F MSN 1, 1020 us
 *   #6   RDMA READ Request (12) PSN 11259376, A=1, DMA length 4096, 1600 us
 *   #7-10 READ Response First (13), Middle (14) x2, Last (15), PSN 11259376.., 1619, 1630, 1641, 1652 us
 *   #11-12 UD SEND Only (100) on QP1 at 5000, 5150 us      (no flow)
 * </pre>
 * CNP ({@link #cnp}): one CNP from 10.2.0.2 to 10.2.0.1, QP 0x2A5 = 677, BECN, DSCP 48, ECT(0), UDP
 * source port 0.
 */
final class FixtureCaptures {
    /** PSN of the RDMA WRITE. */
    static final int WRITE_PSN = 0xABCDEF;
    /** Destination QP of the CNP. */
    static final int CNP_QP = 0x2A5;

    private static final int REQ_IP = 0xC0A8_0705;
    private static final int RESP_IP = 0xC0A8_0704;

    private FixtureCaptures() {
    }

    /**
     * Writes the Soft-RoCE-like exchange.
     *
     * @param file the pcap file to write
     * @return {@code file}
     */
    static Path softroce(final Path file) {
        try (PcapWriter w = PcapWriter.create(file)) {
            w.writeRoceV2(ud(true, 0x100), us(0));
            w.writeRoceV2(ud(false, 0x200), us(150));
            w.writeRoceV2(ud(true, 0x101), us(300));
            RocePacket p = packet(true, IbOpcodes.RC_RDMA_WRITE_ONLY, WRITE_PSN);
            p.ackReq = true;
            p.rethDmaLength = 18;
            p.payloadBytes = 18;
            w.writeRoceV2(p, us(1000));
            p = packet(false, IbOpcodes.RC_ACKNOWLEDGE, WRITE_PSN);
            p.aethSyndrome = 0x1F;
            p.aethMsn = 1;
            w.writeRoceV2(p, us(1020));
            p = packet(true, 12, WRITE_PSN + 1);       // RDMA READ Request
            p.ackReq = true;
            p.rethDmaLength = 4096;
            w.writeRoceV2(p, us(1600));
            final int[] ops = {13, 14, 14, 15};        // READ Response First, Middle, Middle, Last
            for (int i = 0; i < 4; i++) {
                p = packet(false, ops[i], WRITE_PSN + 1 + i);
                p.payloadBytes = 1024;
                p.aethSyndrome = 0x1F;                 // used on First and Last only (their layout has an AETH)
                w.writeRoceV2(p, us(1619 + 11L * i));
            }
            w.writeRoceV2(ud(true, 0x102), us(5000));
            w.writeRoceV2(ud(false, 0x201), us(5150));
        }
        return file;
    }

    /**
     * Writes the one-CNP capture.
     *
     * @param file the pcap file to write
     * @return {@code file}
     */
    static Path cnp(final Path file) {
        try (PcapWriter w = PcapWriter.create(file)) {
            final RocePacket p = new RocePacket();
            p.srcIpv4(0x0A02_0002).dstIpv4(0x0A02_0001);
            p.opcode = IbOpcodes.CNP;
            p.becn = true;
            p.dscp = 48;
            p.ecn = 2;
            p.pkey = 0xFFFF;
            p.destQp = CNP_QP;
            w.writeRoceV2(p, 0);
        }
        return file;
    }

    private static long us(final long us) {
        return us * 1_000_000L;
    }

    private static RocePacket packet(final boolean fromRequester, final int opcode, final int psn) {
        final RocePacket p = new RocePacket();
        p.srcMac = fromRequester ? 0x0200_0000_0705L : 0x0200_0000_0704L;
        p.dstMac = fromRequester ? 0x0200_0000_0704L : 0x0200_0000_0705L;
        p.srcIpv4(fromRequester ? REQ_IP : RESP_IP).dstIpv4(fromRequester ? RESP_IP : REQ_IP);
        p.udpSrcPort = fromRequester ? 0xC011 : 0xC012;
        p.pkey = 0xFFFF;
        p.opcode = opcode;
        p.destQp = fromRequester ? 0x12 : 0x11;
        p.psn = psn;
        return p;
    }

    private static RocePacket ud(final boolean fromRequester, final int psn) {
        final RocePacket p = packet(fromRequester, IbOpcodes.UD_SEND_ONLY, psn);
        p.destQp = 1;
        p.dethQkey = 0x8001_0000;
        p.dethSrcQp = 1;
        p.payloadBytes = 256;
        return p;
    }
}
