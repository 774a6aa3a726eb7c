package dev.nicsim.pcc;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The holders an algorithm reads and writes on every event (attributes, flow context, counters,
 * result, event type names), each value derived by hand from the javadoc contract and
 * docs/doca-pcc.md's layout. Written so that PIT's mutants of these accessors die.
 */
class PccAccessorsTest {

    @Test
    void attributesKeepWhatWasSetAndComputeTheBdp() {
        final PccAttributes a = new PccAttributes();
        assertSame(a, a.set(100_000_000_000L, 3, true, 4096, 8_000));
        assertEquals(100_000_000_000L, a.lineRateBitsPerSec());
        assertEquals(3, a.algorithmSlot());
        assertTrue(a.overloaded());
        assertEquals(4096, a.mtuBytes());
        assertEquals(8_000, a.baseRttNs());
        // BDP = 100 Gb/s x 8 us / 8 bits = 100,000 bytes
        assertEquals(100_000L, a.bdpBytes());
        assertSame(a, a.overloaded(false));
        assertFalse(a.overloaded());
        // 25 Gb/s x 12,345 ns / 8 = 38,578.125 bytes, rounded down
        a.set(25_000_000_000L, 0, false, 1000, 12_345);
        assertEquals(38_578L, a.bdpBytes());
    }

    @Test
    void initialPsnTakesAll24BitValuesAndIsClearedBySet() {
        final PccAttributes a = new PccAttributes().set(1, 0, false, 1, 1);
        assertEquals(0, a.initialPsn());
        assertSame(a, a.initialPsn(0xFF_FFFF));
        assertEquals(0xFF_FFFF, a.initialPsn());
        a.initialPsn(0);
        assertEquals(0, a.initialPsn());
        a.initialPsn(12_345);
        a.set(1, 0, false, 1, 1);
        assertEquals(0, a.initialPsn(), "set() resets the initial PSN to 0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.initialPsn(1 << 24));
        assertEquals("initialPsn: expected 0..16777215, got 16777216", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.initialPsn(-1));
    }

    @Test
    void contextWordsAreLittleEndianAtTheirOffsetAndBounded() {
        final UnsafeBuffer buf = new UnsafeBuffer(new byte[64]);
        buf.setMemory(0, 64, (byte) 0x55);
        final PccContext c = new PccContext();
        assertSame(c, c.wrap(buf, 8, 3));
        assertEquals(3, c.words());
        c.set(0, 0x11223344);
        c.set(2, -2);
        // word 0 at byte 8, low byte first; word 2 at byte 8 + 4 x 2 = 16
        assertEquals(0x44, buf.getByte(8) & 0xFF);
        assertEquals(0x11, buf.getByte(11) & 0xFF);
        assertEquals(-2, buf.getInt(16, java.nio.ByteOrder.LITTLE_ENDIAN));
        assertEquals(0x11223344, c.get(0));
        assertEquals(0x55555555, c.get(1), "word 1 was not written");
        assertEquals(-2, c.get(2));
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> c.get(3));
        assertEquals("context word 3 not in 0..2", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> c.get(-1));
        e = assertThrows(IndexOutOfBoundsException.class, () -> c.set(3, 1));
        assertEquals("context word 3 not in 0..2", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> c.set(-1, 1));
        c.clear();
        assertEquals(0, c.get(0));
        assertEquals(0, c.get(1));
        assertEquals(0, c.get(2));
        // only bytes 8..19 are zeroed: the byte before and the byte after keep 0x55
        assertEquals(0x55, buf.getByte(7));
        assertEquals(0x55, buf.getByte(20));
    }

    /**
     * An off-heap buffer (as {@code FlowContextStore} allocates) goes through the same one-access
     * path as a heap array, at the buffer's absolute address: words land at the same bytes, and a
     * slice at a non-zero offset reads its own words, not the buffer's first ones.
     */
    @Test
    void contextWordsOffHeapLandWhereTheHeapOnesDo() {
        final UnsafeBuffer direct = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(64));
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[64]);
        direct.setMemory(0, 64, (byte) 0x55);
        heap.setMemory(0, 64, (byte) 0x55);
        final PccContext d = new PccContext().wrap(direct, 12, 4);
        final PccContext h = new PccContext().wrap(heap, 12, 4);
        d.set(1, 0x0A0B0C0D);
        h.set(1, 0x0A0B0C0D);
        d.set(3, -7);
        h.set(3, -7);
        for (int i = 0; i < 64; i++) {
            assertEquals(heap.getByte(i), direct.getByte(i), "byte " + i);
        }
        assertEquals(0x0D, direct.getByte(16) & 0xFF); // word 1 at byte 12 + 4, low byte first
        assertEquals(0x55555555, d.get(0));
        assertEquals(0x0A0B0C0D, d.get(1));
        assertEquals(-7, d.get(3));
        assertEquals(-7, direct.getInt(24, java.nio.ByteOrder.LITTLE_ENDIAN));
        final IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> d.get(4));
        assertEquals("context word 4 not in 0..3", e.getMessage());
    }

    @Test
    void countersAllocateInOrderGrowAndAdd() {
        final PccCounters c = new PccCounters();
        assertEquals(0, c.size());
        for (int i = 0; i < 20; i++) { // past the initial 8 slots, twice
            assertEquals(i, c.allocate("c" + i));
        }
        assertEquals(20, c.size());
        assertEquals("c17", c.name(17));
        c.increment(17);
        c.increment(17);
        c.add(17, 40);
        c.add(3, -5);
        c.increment(19);
        assertEquals(42, c.get(17));
        assertEquals(42, c.get("c17"));
        assertEquals(-5, c.get("c3"));
        assertEquals(1, c.get(19));
        assertEquals(0, c.get(0));
        c.add(0, 6);
        assertEquals(6, c.get("c0"), "the first counter is found by name");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.allocate("c5"));
        assertEquals("counter already allocated: c5", e.getMessage());
        assertEquals(20, c.size(), "a refused name allocates nothing");
        final PccCounters small = new PccCounters();
        small.allocate("cnp_handled");
        e = assertThrows(IllegalArgumentException.class, () -> small.get("rate_cuts"));
        assertEquals("no counter rate_cuts; have [cnp_handled]", e.getMessage());
    }

    @Test
    void resultAccessorsValidateResetAndCopy() {
        final PccResult r = new PccResult();
        assertFalse(r.rttProbeRequest());
        assertEquals(0, r.timerNs());
        assertEquals(PccResult.FAST_START_UNCHANGED, r.fastStartPackets());
        assertSame(r, r.rate(1));
        assertEquals(1, r.rate());
        r.rate(FixedPoint.RATE_ONE);
        assertEquals(FixedPoint.RATE_ONE, r.rate());
        r.rate(-7);
        assertEquals(1, r.rate());
        r.rate(12_345);
        assertEquals(12_345, r.rate());
        assertSame(r, r.windowBytes(PccResult.WINDOW_UNLIMITED));
        assertEquals(0, r.windowBytes());
        r.windowBytes(65_536);
        assertEquals(65_536, r.windowBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.windowBytes(-1));
        assertEquals("window must be >= 0 bytes, got -1", e.getMessage());
        assertSame(r, r.requestRttProbe());
        assertTrue(r.rttProbeRequest());
        assertSame(r, r.armTimerNs(1));
        assertEquals(1, r.timerNs());
        e = assertThrows(IllegalArgumentException.class, () -> r.armTimerNs(-3));
        assertEquals("timer delay must be > 0 ns, got -3", e.getMessage());
        assertSame(r, r.fastStartPackets(0));
        assertEquals(0, r.fastStartPackets());
        r.fastStartPackets(16);
        e = assertThrows(IllegalArgumentException.class, () -> r.fastStartPackets(-1));
        assertEquals("fast-start packets must be >= 0, got -1", e.getMessage());
        assertEquals("PccResult{rate=12345, windowBytes=65536, rttProbe=true, timerNs=1, fastStartPackets=16}",
            r.toString());
        final PccResult copy = new PccResult();
        assertSame(copy, copy.copyFrom(r));
        assertEquals(r.toString(), copy.toString());
        assertSame(r, r.reset());
        assertEquals("PccResult{rate=-1, windowBytes=-1, rttProbe=false, timerNs=0, fastStartPackets=-1}",
            r.toString());
        assertEquals(16, copy.fastStartPackets(), "the copy is independent of the original");
    }

    @Test
    void eventTypeNamesAndRange() {
        assertEquals("TX_BURST", PccEventType.name(PccEventType.TX_BURST));
        assertEquals("TIMER", PccEventType.name(PccEventType.TIMER));
        assertEquals("RTT_RESPONSE", PccEventType.name(4));
        assertEquals("tx", PccEventType.shortName(0));
        assertEquals("nack", PccEventType.shortName(PccEventType.NACK));
        assertEquals("timer", PccEventType.shortName(5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PccEventType.name(6));
        assertEquals("PCC event type 6 is not in 0..5", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PccEventType.name(-1));
        assertThrows(IllegalArgumentException.class, () -> PccEventType.shortName(6));
        assertThrows(IllegalArgumentException.class, () -> PccEventType.shortName(-1));
    }

    @Test
    void fixedPointEdges() {
        assertEquals(0.25, FixedPoint.toDouble(16_384));
        assertEquals(-1.5, FixedPoint.toDouble(-98_304));
        assertEquals(-98_304, FixedPoint.toFixed(-1.5));
        // 3 x 2^-16 x 0.5 = 1.5 x 2^-16: truncated toward negative infinity -> 1, and -1.5 -> -2
        assertEquals(1, FixedPoint.mul(3, FixedPoint.ONE / 2));
        assertEquals(-2, FixedPoint.mul(-3, FixedPoint.ONE / 2));
        // 1 / 3 = 21845.33 units, -1 / 3 truncated toward zero = -21845
        assertEquals(21_845, FixedPoint.div(FixedPoint.ONE, 3 * FixedPoint.ONE));
        assertEquals(-21_845, FixedPoint.div(-FixedPoint.ONE, 3 * FixedPoint.ONE));
        assertThrows(ArithmeticException.class, () -> FixedPoint.div(1, 0));
        // line rate at 8 Tb/s: 2^20 x 8e12 >> 20 = 8e12 (no overflow)
        assertEquals(8_000_000_000_000L, FixedPoint.rateToBitsPerSec(FixedPoint.RATE_ONE, 8_000_000_000_000L));
        assertEquals(0L, FixedPoint.rateToBitsPerSec(0, 100_000_000_000L));
        // 1 unit of 100 Gb/s is 100e9 / 2^20 = 95367.43 b/s, rounded down
        assertEquals(95_367L, FixedPoint.rateToBitsPerSec(1, 100_000_000_000L));
        assertEquals(FixedPoint.RATE_ONE, FixedPoint.bitsPerSecToRate(300_000_000_000L, 100_000_000_000L));
        assertEquals(FixedPoint.RATE_ONE, FixedPoint.bitsPerSecToRate(100_000_000_000L, 100_000_000_000L));
        // 10 Gb/s of 100 = 0.1 x 2^20 = 104857.6, rounded down
        assertEquals(104_857, FixedPoint.bitsPerSecToRate(10_000_000_000L, 100_000_000_000L));
        // PSN distance at the edges of [-2^23, 2^23)
        assertEquals(-(1 << 23), FixedPoint.psnDelta(0, 1 << 23));
        assertEquals((1 << 23) - 1, FixedPoint.psnDelta(0, (1 << 23) - 1));
        assertEquals(0, FixedPoint.psnDelta(0xABCDEF, 0xABCDEF));
        assertEquals(-10, FixedPoint.nsSince(100, 90));
    }
}
