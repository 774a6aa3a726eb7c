package dev.nicsim.pcc;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The RTT raw data of an RTT_RESPONSE event (DOCA PCC fact sheet A.7 step 5): the 12 bytes are the
 * three RTT words, each big-endian, so byte k is byte k mod 4 of word k / 4 written most significant first.
 */
class RttRawDataTest {
    @Test
    void rawBytesAreTheThreeRttWordsBigEndian() {
        final PccEvent e = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
        e.reset(PccEventType.RTT_RESPONSE, 0, 7, 1, 100).rtt(0x0102_0304, 0xA0B0_C0D0, 0x0000_4F60);
        final int[] expected = {0x01, 0x02, 0x03, 0x04, 0xA0, 0xB0, 0xC0, 0xD0, 0x00, 0x00, 0x4F, 0x60};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], e.rttRawByte(k), "byte " + k);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> e.rttRawByte(12));
        assertThrows(IndexOutOfBoundsException.class, () -> e.rttRawByte(-1));
    }
}
