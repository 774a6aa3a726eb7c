package dev.nicsim.fabric.run;

import dev.nicsim.scenario.Scenario;
import dev.nicsim.sw.RcmConfig;
import dev.nicsim.sw.SwitchConfig;

/**
 * Maps a scenario's {@code switch.rcm} section ({@link Scenario.Rcm}) onto the switch model's
 * {@link RcmConfig} (the RCM paper §3), field for field:
 * <pre>
 *   detection, flow_recognition,          -> detection, flowRecognition,
 *   regional_control, adaptive_routing       regionalControl, adaptiveRouting
 *   priorities [p, ...]                    -> priorityMask = OR of 1 &lt;&lt; p
 *   w_q, q_eq_bytes, fb_bits, w, g_d       -> wq, qEqBytes, fbBits, w, gd (0 = GD_AUTO)
 *   sample_bytes, notification_priority    -> sampleBytes, notificationPriority
 *   notification_lifetime_us, window_period_us, detour_idle_us
 *                                          -> notificationLifetimePs, windowPeriodPs, detourIdlePs (ps)
 *   compound_window_decrease, harmful_min_entries, detour_table_entries
 *                                          -> compoundWindowDecrease, harmfulMinEntries, detourTableEntries
 *   latch_harmful_set                      -> latchHarmfulSet
 * </pre>
 * and, when any mechanism is on, makes the notification priority strict in the switch's
 * scheduler ({@link SwitchConfig#strictPriorityMask}), so congestion notifications are never
 * queued behind the data of a DWRR priority.
 *
 * <p>Thread-safety: stateless.
 */
public final class RcmMapping {
    private RcmMapping() {
    }

    /**
     * Writes the RCM section into a switch configuration (which the caller validates).
     *
     * @param r the scenario's section, already validated by the loader
     * @param c the configuration to fill; its {@code rcm} is replaced and its strict-priority mask
     *          may gain the notification priority
     */
    public static void apply(final Scenario.Rcm r, final SwitchConfig c) {
        final RcmConfig m = new RcmConfig();
        m.detection = r.detection();
        m.flowRecognition = r.flowRecognition();
        m.regionalControl = r.regionalControl();
        m.adaptiveRouting = r.adaptiveRouting();
        int mask = 0;
        for (final int p : r.priorities()) {
            mask |= 1 << p;
        }
        m.priorityMask = mask;
        m.wq = r.wq();
        m.qEqBytes = r.qEqBytes();
        m.fbBits = r.fbBits();
        m.w = r.w();
        m.gd = r.gd();
        m.sampleBytes = r.sampleBytes();
        m.notificationPriority = r.notificationPriority();
        m.notificationLifetimePs = r.notificationLifetimePs();
        m.windowPeriodPs = r.windowPeriodPs();
        m.compoundWindowDecrease = r.compoundWindowDecrease();
        m.harmfulMinEntries = r.harmfulMinEntries();
        m.latchHarmfulSet = r.latchHarmfulSet();
        m.detourTableEntries = r.detourTableEntries();
        m.detourIdlePs = r.detourIdlePs();
        c.rcm = m;
        if (m.anyEnabled()) {
            c.strictPriorityMask |= 1 << m.notificationPriority;
        }
    }
}
