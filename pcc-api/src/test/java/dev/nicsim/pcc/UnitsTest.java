package dev.nicsim.pcc;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The time conversions of {@link Units}, against SI by hand (1 us = 1,000 ns = 1,000,000 ps), and
 * the bit-for-bit equality with the literal divisions the callers used before the constants.
 */
class UnitsTest {

    @Test
    void timeConstantsAreSi() {
        assertEquals(1_000L, Units.PS_PER_NS);
        assertEquals(1_000L, Units.NS_PER_US);
        assertEquals(1_000_000L, Units.PS_PER_US);
        assertEquals(Units.PS_PER_US, Units.PS_PER_NS * Units.NS_PER_US);
    }

    @Test
    void usFromNsDividesByOneThousandAsADouble() {
        assertEquals(0.0, Units.usFromNs(0));
        assertEquals(1.0, Units.usFromNs(1_000));
        assertEquals(1.5, Units.usFromNs(1_500));
        assertEquals(0.001, Units.usFromNs(1));
        assertEquals(-2.25, Units.usFromNs(-2_250));
        // the same double as the literal division, bit for bit, across magnitudes
        for (final long ns : new long[] {1, 7, 999, 123_456_789, 1L << 52, Long.MAX_VALUE / 1000, Long.MAX_VALUE}) {
            assertEquals(Double.doubleToLongBits(ns / 1000.0), Double.doubleToLongBits(Units.usFromNs(ns)), "ns=" + ns);
        }
    }

    @Test
    void nsFromPsAndWholeNsFromPs() {
        assertEquals(1.5, Units.nsFromPs(1_500));
        assertEquals(1L, Units.wholeNsFromPs(1_999));
        assertEquals(0L, Units.wholeNsFromPs(-999));
        assertEquals(2.5, Units.usFromPs(2_500_000));
    }
}
