package dev.nicsim.microcode.firmware;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code firmware/bin/rtt_template.elf} (firmware/algorithms/rtt_template.c, no Java twin) through
 * the firmware provider on the direct processor, against numbers derived by hand from the fact
 * sheet's description of NVIDIA's RTT template (doca-pcc-device-api.md, "The RTT template"): a new
 * flow (rate 0 in its context) starts at the configured rate (default 2^20, line rate) and asks
 * for an RTT probe; TX events re-ask for a probe none came back for within 300 us x 2^aborts; on
 * an RTT response, RTT = event time - probe send time: above 150 us, or after a CNP or NACK, the
 * rate is cut by update factor 0.1 (6554 in 16.16: rate -= (rate x 6554) &gt;&gt; 16), otherwise
 * it grows by 5 % of line rate (52428 in 20-bit units) up to 2^20; the floor is 64; ACK events
 * are disabled. Uses the committed ELF (skipped with one line when the checkout lacks it).
 */
class RttTemplateFirmwareTest {
    private static final int QPN = 7;
    private static final int LINE = 1 << 20;

    record Got(int rate, boolean probe) {
    }

    private final List<Got> got = new ArrayList<>();
    private final PccEvent ev = new PccEvent().wrap(new UnsafeBuffer(new byte[64]), 0);

    private void sink(final int qpn, final PccResult r, final long ps, final long cycles) {
        got.add(new Got(r.rate(), r.rttProbeRequest()));
    }

    private Got last() {
        return got.get(got.size() - 1);
    }

    private DirectCcProcessor processor(final FirmwareProvider p, final dev.nicsim.pcc.PccParameterValues v) {
        final DirectCcProcessor d = new DirectCcProcessor(p.processorInstances(v).get(), 0, this::sink);
        d.startFlow(QPN, 0, 100_000_000_000L, 1024, 13_000, 0);
        return d;
    }

    private void event(final DirectCcProcessor d, final int type, final int nowNs) {
        d.offer(ev.reset(type, 0, QPN, 1, nowNs), nowNs * 1000L);
    }

    private void rtt(final DirectCcProcessor d, final int sentNs, final int nowNs) {
        d.offer(ev.reset(PccEventType.RTT_RESPONSE, 0, QPN, 1, nowNs).rtt(sentNs, sentNs + 500, sentNs + 600), nowNs * 1000L);
    }

    private static Map<String, Long> counters(final DirectCcProcessor d) {
        final Map<String, Long> m = new LinkedHashMap<>();
        d.forEachCounter(m::put);
        return m;
    }

    @Test
    void startProbeAdditiveIncreaseMultiplicativeDecreaseAndProbeTimeouts() {
        final FirmwareProvider p = FirmwareProvider.load(FirmwareDifferentialTest.elf("rtt_template.elf"),
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        final DirectCcProcessor d = processor(p, p.defaults());
        event(d, PccEventType.TX_BURST, 1_000);
        assertEquals(new Got(LINE, true), last()); // new flow: start rate 2^20 and a probe (sent at 1,000 ns)
        event(d, PccEventType.ACK, 2_000);
        assertEquals(new Got(PccResult.RATE_UNCHANGED, false), last()); // ACKs are disabled: not run
        event(d, PccEventType.TX_BURST, 3_000);
        assertEquals(new Got(LINE, false), last()); // probe outstanding 2 us < 300 us: no new one
        rtt(d, 1_000, 21_000);
        // RTT 20 us <= 150 us, no CNP: 2^20 + 52,428 is clamped to line rate; the next probe is asked for
        assertEquals(new Got(LINE, true), last());
        event(d, PccEventType.CNP, 22_000);
        assertEquals(new Got(LINE, false), last()); // a CNP only marks the flow congested
        rtt(d, 21_000, 40_000);
        // RTT 19 us but congested: 2^20 - (2^20 x 6554 >> 16) = 1,048,576 - 104,864
        assertEquals(new Got(943_712, true), last());
        rtt(d, 40_000, 60_000);
        // RTT 20 us, the congestion mark was cleared by the last RTT event: + 52,428
        assertEquals(new Got(996_140, true), last());
        rtt(d, 60_000, 300_000);
        // RTT 240 us > 150 us: 996,140 - (996,140 x 6554 >> 16 = 99,620)
        assertEquals(new Got(896_520, true), last());
        // probe sent at 300,000 ns; TX at 600,001 ns: 300,001 ns > 300 us x 2^0: re-ask, abort count 1
        event(d, PccEventType.TX_BURST, 600_001);
        assertEquals(new Got(896_520, true), last());
        event(d, PccEventType.TX_BURST, 1_200_001); // 600,000 ns, not > 300 us x 2^1: wait
        assertEquals(new Got(896_520, false), last());
        event(d, PccEventType.TX_BURST, 1_200_002); // 600,001 ns > 600 us: re-ask, abort count 2
        assertEquals(new Got(896_520, true), last());
        event(d, PccEventType.NACK, 1_300_000); // a NACK marks the flow congested too
        rtt(d, 1_200_002, 1_210_000);
        // RTT 10 us but congested: 896,520 - (896,520 x 6554 >> 16 = 89,657)
        assertEquals(new Got(806_863, true), last());
        final Map<String, Long> c = counters(d);
        assertEquals(5L, c.get("rtt_events"));
        assertEquals(3L, c.get("rate_decreases"));
        assertEquals(2L, c.get("rate_increases"));
        assertEquals(1L, c.get("cnp_events"));
        assertEquals(1L, c.get("nack_events"));
        assertEquals(2L, c.get("probe_timeouts"));
        assertEquals(0L, c.get("firmware_faults"));
    }

    @Test
    void parametersByNameSetStartRateAndTheMinimumRateFloor() {
        final FirmwareProvider p = FirmwareProvider.load(FirmwareDifferentialTest.elf("rtt_template.elf"),
            FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        // update factor 1.0 (65536 in 16.16) cuts the whole rate: the floor, min_rate 64, holds it
        final DirectCcProcessor d = processor(p, p.defaults().set("update_factor", 65_536).set("new_flow_rate", 1 << 18));
        event(d, PccEventType.TX_BURST, 1_000);
        assertEquals(new Got(1 << 18, true), last()); // a quarter of line rate
        rtt(d, 1_000, 200_000); // RTT 199 us > 150 us: 2^18 - 2^18 = 0 -> 64
        assertEquals(new Got(64, true), last());
        rtt(d, 200_000, 210_000); // RTT 10 us: 64 + 52,428
        assertEquals(new Got(52_492, true), last());
    }
}
