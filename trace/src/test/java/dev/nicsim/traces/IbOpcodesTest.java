package dev.nicsim.traces;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BTH opcode table (IBTA vol. 1 §9.2.1, table 38 "OpCode field"; RoCEv2 annex A17 for the CNP
 * 0x81) and the extension-header sizes of §9.3 (RETH 16, AETH 4, ImmDt 4, IETH 4, DETH 8, XRCETH 4,
 * AtomicETH 28, AtomicAckETH 8, FETH 4 bytes), read by hand from the specification.
 */
class IbOpcodesTest {

    private static int ext(final int opcode) {
        return IbOpcodes.extensionBytes(IbOpcodes.layout(opcode));
    }

    @Test
    void headerOffsetsFollowPacketOrder() {
        // §9.3 packet order after the BTH: DETH, XRCETH, (FETH,) RETH, AtomicETH, AETH, AtomicAckETH, ImmDt / IETH
        assertEquals(16, IbOpcodes.offset(IbOpcodes.layout(0x0B), IbOpcodes.IMM));    // RETH 16, then ImmDt
        assertEquals(0, IbOpcodes.offset(IbOpcodes.layout(0x0B), IbOpcodes.RETH));
        assertEquals(8, IbOpcodes.offset(IbOpcodes.layout(0x65), IbOpcodes.IMM));     // DETH 8, then ImmDt
        assertEquals(4, IbOpcodes.offset(IbOpcodes.layout(0x12), IbOpcodes.ATOMIC_ACK_ETH)); // after AETH 4
        assertEquals(4, IbOpcodes.offset(IbOpcodes.layout(0x18), IbOpcodes.RETH));    // FLUSH: FETH 4, then RETH
        assertEquals(4, IbOpcodes.offset(IbOpcodes.layout(0xAA), IbOpcodes.RETH));    // XRCETH 4, then RETH
        assertEquals(0, IbOpcodes.offset(IbOpcodes.layout(0x17), IbOpcodes.IETH));
    }

    @Test
    void extensionHeaderBytesPerOpcode() {
        assertEquals(0, ext(0x04));                 // RC SEND Only
        assertEquals(4, ext(0x05));                 // RC SEND Only with Immediate: ImmDt
        assertEquals(16, ext(0x06));                // RC RDMA WRITE First: RETH
        assertEquals(20, ext(0x0B));                // RC RDMA WRITE Only with Immediate: RETH + ImmDt
        assertEquals(16, ext(0x0C));                // RC RDMA READ Request: RETH
        assertEquals(4, ext(0x0D));                 // RC RDMA READ Response First: AETH
        assertEquals(0, ext(0x0E));                 // Middle: none
        assertEquals(4, ext(0x11));                 // RC Acknowledge: AETH
        assertEquals(12, ext(0x12));                // ATOMIC Acknowledge: AETH + AtomicAckETH
        assertEquals(28, ext(0x13));                // CmpSwap: AtomicETH
        assertEquals(4, ext(0x17));                 // SEND Only with Invalidate: IETH
        assertEquals(20, ext(0x18));                // FLUSH: FETH + RETH
        assertEquals(8, ext(0x64));                 // UD SEND Only: DETH
        assertEquals(12, ext(0x65));                // UD SEND Only with Immediate: DETH + ImmDt
        assertEquals(4, ext(0xA4));                 // XRC SEND Only: XRCETH
        assertEquals(20, ext(0xAA));                // XRC RDMA WRITE Only: XRCETH + RETH
        assertEquals(4, ext(0xB1));                 // XRC Acknowledge: AETH, no XRCETH on responses
        assertEquals(32, ext(0xB3));                // XRC CmpSwap: XRCETH + AtomicETH
        assertEquals(16, ext(0x2A));                // UC RDMA WRITE Only: RETH
        assertEquals(0, ext(0x81));                 // CNP: none
        assertEquals(IbOpcodes.UNKNOWN, IbOpcodes.layout(0x15)); // RC reserved 21
        assertEquals(IbOpcodes.UNKNOWN, IbOpcodes.layout(0x2C)); // UC has no RDMA READ
        assertEquals(IbOpcodes.UNKNOWN, IbOpcodes.layout(0x44)); // RD: named, layout unknown
        assertEquals(IbOpcodes.UNKNOWN, IbOpcodes.layout(0x60)); // UD SEND First does not exist
        assertEquals(IbOpcodes.layout(0x04), IbOpcodes.layout(0x104), "only the low 8 bits count");
    }

    @Test
    void connectedRequestsAndResponses() {
        for (final int op : new int[] {0x00, 0x05, 0x0A, 0x0C, 0x13, 0x14, 0x16, 0x17, 0x18, 0x19,
            0x20, 0x2B, 0x40, 0x4C, 0xA0, 0xB9}) {
            assertTrue(IbOpcodes.isConnectedRequest(op), Integer.toHexString(op));
            assertFalse(IbOpcodes.isResponse(op), Integer.toHexString(op));
        }
        for (final int op : new int[] {0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x4D, 0x52, 0xAD, 0xB2}) {
            assertTrue(IbOpcodes.isResponse(op), Integer.toHexString(op));
            assertFalse(IbOpcodes.isConnectedRequest(op), Integer.toHexString(op));
        }
        // neither: reserved RC 21 and 26, UC 12 (no READ on UC), UD SEND, CNP, UC and UD op 13..18
        for (final int op : new int[] {0x15, 0x1A, 0x1F, 0x2C, 0x2D, 0x32, 0x64, 0x6D, 0x81, 0x8D, 0xE0, 0xED}) {
            assertFalse(IbOpcodes.isConnectedRequest(op), Integer.toHexString(op));
            assertFalse(IbOpcodes.isResponse(op), Integer.toHexString(op));
        }
    }

    @Test
    void names() {
        assertEquals("RC RDMA WRITE Only", IbOpcodes.name(0x0A));
        assertEquals("UC SEND Only with Immediate", IbOpcodes.name(0x25));
        assertEquals("XRC ATOMIC Acknowledge", IbOpcodes.name(0xB2));
        assertEquals("RD FetchAdd", IbOpcodes.name(0x54));
        assertEquals("UD SEND Only", IbOpcodes.name(0x64));
        assertEquals("UD SEND Only with Immediate", IbOpcodes.name(0x65));
        assertEquals("CNP", IbOpcodes.name(0x81));
        assertEquals("opcode 0x15", IbOpcodes.name(0x15));
        assertEquals("opcode 0x55", IbOpcodes.name(0x55)); // RD stops at FetchAdd (20)
        assertEquals("opcode 0xff", IbOpcodes.name(0xFF));
        assertEquals("RC SEND First", IbOpcodes.name(0x100), "only the low 8 bits count");
    }

    @Test
    void addressesFormatAsIpv4LidOrIpv6() {
        final RocePacket p = new RocePacket().srcIpv4(0xC0A8_4105).dstIpv4(0x0A00_00FF);
        assertEquals(0xC0A8_4105, p.srcIpv4());
        assertEquals(0x0A00_00FF, p.dstIpv4());
        assertEquals("192.168.65.5", RocePacket.formatAddress(p.srcAddrHi, p.srcAddrLo));
        assertEquals("10.0.0.255", RocePacket.formatAddress(p.dstAddrHi, p.dstAddrLo));
        assertEquals("lid:49153", RocePacket.formatAddress(RocePacket.LID_TAG, 0xC001));
        // 2001:db8::1 written out in full groups, without zero compression
        assertEquals("2001:db8:0:0:0:0:0:1", RocePacket.formatAddress(0x2001_0DB8_0000_0000L, 1));
        assertEquals("255.255.255.255", RocePacket.formatAddress(0, 0xFFFF_FFFF_FFFFL)); // ::ffff:255.255.255.255
        // the v4-mapped prefix needs hi = 0: with hi set it is IPv6
        assertEquals("0:0:0:1:0:ffff:a00:1", RocePacket.formatAddress(1, RocePacket.IPV4_MAPPED | 0x0A00_0001L));
        assertEquals("0:0:0:0:1:ffff:a00:1", RocePacket.formatAddress(0, 0x0001_FFFF_0A00_0001L));
    }
}
