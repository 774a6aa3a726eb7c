package dev.nicsim.traces;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as a capture (classic pcap, pcapng, either byte order, any
 * link type, ERF InfiniBand records), decoded in strict and in lenient mode with the PCC event
 * deriver attached, end normally or in a
 * one-line {@link CaptureException}; anything else escaping is a finding. {@code mvn test} replays
 * the committed corpus ({@code CaptureJazzerTestInputs/}); {@code mvn test -Pfuzz -Dtest=CaptureJazzerTest}
 * fuzzes it (see docs/reliability.md).
 */
class CaptureJazzerTest {
    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyBytesDecodeOrFailWithOneLine(final byte[] capture) {
        for (final boolean strict : new boolean[] {true, false}) {
            try {
                // the event deriver attached, as trace import and replay use it
                new CaptureDecoder(strict).decode("fuzz.pcap", capture,
                    new PccEventDeriver((e, t) -> { }, 10_000, PccEventDeriver.DEFAULT_PAIRING_WAIT_NS, true));
            } catch (final CaptureException e) {
                assertFalse(e.getMessage().contains("\n"), e.getMessage());
            }
        }
    }
}
