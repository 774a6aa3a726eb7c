package dev.nicsim.fabric.run;

import dev.nicsim.nic.FlowProgress;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link StallReport} on flow states built by hand (the whole-run cases are in
 * {@code StallLineAcceptanceTest}): the 100 us threshold, rate ranges, flows that never got a first
 * result, a Java algorithm without probes, flows not started and a run that ran out of events.
 * Times in ps: 1 us = 10^6.
 */
class StallReportTest {
    private static final long US = 1_000_000L;
    private static final long LINE = 100_000_000_000L;
    private static final StallReport.Context JAVA = new StallReport.Context("algorithm dcqcn", null, 0, 0, 0, 0, 0, 0);

    /** A flow at a rate, lowest rate, last rate change, last progress and last result (us), probes, answers. */
    private static FlowProgress flow(final int id, final long rate, final long lowest, final long rateSinceUs,
                                     final long progressUs, final long lastResultUs, final int probes, final int answers,
                                     final boolean waiting) {
        return new FlowProgress(id, id + 1, 100_000, 10_000, rate, lowest, rateSinceUs * US, progressUs * US,
            lastResultUs < 0 ? -1 : lastResultUs * US, probes, answers, waiting);
    }

    @Test
    void theThresholdIsOneHundredMicrosecondsBeforeTheEnd() {
        // end 1000 us: progress at 900 us is exactly 100 us before: stalled; at 900.000001 us: progressing
        final StallReport at = StallReport.of(List.of(flow(0, LINE, LINE, 0, 900, 900, 0, 0, false)), new long[] {LINE}, 0, 1,
            1000 * US, 1000 * US, false, JAVA);
        assertEquals("stalled flows       1 of 1 (0): no byte acknowledged since 900.000 us (100.000 us to the end); rate 100 Gb/s"
            + " (line rate), since 0.000 us; the run reached its stop time 1000.000 us", at.lines().get(0));
        assertEquals("                    last: algorithm dcqcn asked for no RTT probe; its last result took effect at"
            + " 900.000 us", at.lines().get(1));
        final FlowProgress justIn = new FlowProgress(0, 1, 100_000, 10_000, LINE, LINE, 0, 900 * US + 1, 900 * US, 0, 0, false);
        final StallReport in = StallReport.of(List.of(justIn), new long[] {LINE}, 0, 1, 1000 * US, 1000 * US, false, JAVA);
        assertEquals(List.of("unfinished flows    1 of 1 (0) still progressing: 10000 of 100000 bytes acknowledged, last at"
            + " 900.000 us; rate 100 Gb/s (line rate); the run reached its stop time 1000.000 us"), in.lines());
    }

    /**
     * Two flows at 0.1 and 0.2 Gb/s of a 100 Gb/s line, each its lowest (a range: no single fraction),
     * one flow still progressing, two not started, no event left at 500 us; the latest progress and rate
     * change of the stalled pair are 120 and 80 us; given in NIC order (5 before 3), listed by id.
     */
    @Test
    void aRangeOfRatesOtherFlowsAndARunWithoutEventsAreSaid() {
        final List<FlowProgress> flows = List.of(
            flow(5, 200_000_000L, 200_000_000L, 60, 110, 140, 0, 0, false),
            flow(3, 100_000_000L, 100_000_000L, 80, 120, 130, 0, 0, false),
            flow(6, LINE, LINE, 0, 490, 495, 0, 0, false));
        final StallReport r = StallReport.of(flows, new long[] {LINE, LINE, LINE}, 2, 9, 500 * US, 2000 * US, true, JAVA);
        assertEquals("stalled flows       2 of 9 (3, 5): no byte acknowledged since 120.000 us (380.000 us to the end); rates"
            + " 100 Mb/s .. 200 Mb/s, each the lowest its CC set, since 80.000 us; 1 more unfinished, still progressing; 2 not"
            + " started; no event was left at 500.000 us", r.lines().get(0));
        assertEquals("                    last: algorithm dcqcn asked for no RTT probe; its last result took effect at"
            + " 140.000 us", r.lines().get(1));
    }

    /**
     * Ten flows that never got their first result (the QP waits for it, at line rate, sending nothing):
     * the first eight ids listed; and firmware whose calls were abandoned says so.
     */
    @Test
    void flowsWaitingForTheirFirstResultAndAbandonedFirmwareCallsAreNamed() {
        final FlowProgress[] f = new FlowProgress[10];
        final long[] lines = new long[10];
        for (int i = 0; i < 10; i++) {
            f[i] = flow(i, LINE, LINE, 0, 0, -1, 0, 0, true);
            lines[i] = LINE;
        }
        final StallReport r = StallReport.of(List.of(f), lines, 0, 10, 300 * US, 300 * US, false,
            new StallReport.Context("firmware loop.elf", null, 0, 0, 0, 0, 0, 10));
        assertEquals("stalled flows       10 of 10 (0, 1, 2, 3, 4, 5, 6, 7, ...): no byte acknowledged since 0.000 us"
            + " (300.000 us to the end); rate 100 Gb/s (line rate), since 0.000 us; the run reached its stop time 300.000 us",
            r.lines().get(0));
        assertEquals("                    last: firmware loop.elf gave none of them a first result: they wait for it before"
            + " sending; firmware calls abandoned: 0 faults, 10 over the budget (firmware line)", r.lines().get(1));
    }

    @Test
    void everyFlowDoneMeansNoLineAndRatesAreShownWithFourDigits() {
        assertEquals(List.of(), StallReport.of(List.of(), new long[0], 0, 5, US, US, false, JAVA).lines());
        assertEquals("95.37 kb/s", StallReport.bps(95_367));
        assertEquals("953 b/s", StallReport.bps(953));
        assertEquals("6.104 Mb/s", StallReport.bps(6_103_515));
        assertEquals("100 Gb/s", StallReport.bps(LINE));
        assertEquals("23.072 us", StallReport.us(23_072_000));
    }
}
