package dev.nicsim.scenario;

import dev.nicsim.pcc.Units;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sw.RcmConfig;
import dev.nicsim.sw.SwitchConfig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads {@code switch} (docs/scenarios.md, "switch"): the shared buffer, PFC, WRED/ECN, egress
 * limits, scheduler, CAM, queueing architecture and RCM, with the cross-field rules (xon at most
 * xoff, Kmax at least Kmin, VOQs above the headroom, RCM's prerequisites). Keys, ranges and
 * defaults are the {@link ScenarioSchema} rows; a bound that is another field
 * ({@code buffer_bytes}, {@code cam.depth}) is passed here.
 *
 * <p>Thread-safety: stateless.
 */
final class SwitchSection {
    private SwitchSection() {
    }

    /**
     * Reads the section.
     *
     * @param s    the {@code switch} mapping (empty for all defaults)
     * @param nic  the NIC settings (the PFC, WRED and RCM priorities default to its data priority)
     * @param topo the topology (input-output queueing checks the VOQs against its links' headroom)
     * @return the settings
     * @throws ScenarioException naming the field of any bad input
     */
    static Scenario.SwitchSpec read(final YamlFields s, final Scenario.NicSpec nic, final Scenario.Topology topo) {
        final long buffer = s.integer("buffer_bytes");
        final YamlFields p = s.childOrEmpty("pfc");
        final boolean pfcOn = p.bool("enabled");
        final int[] pfcPrios = p.intList("priorities", new int[] {nic.dataPriority()}, 0, 7);
        final boolean dynamic = "dynamic".equals(p.choice("mode"));
        final long xoff = p.integerIn("xoff_bytes", 1, buffer);
        final long xon = p.integerIn("xon_bytes", 0, buffer);
        if (xon > xoff) {
            throw p.fieldError("xon_bytes", "expected xon_bytes <= xoff_bytes (" + xoff + "), got " + xon);
        }
        final double alpha = p.number("alpha");
        final long xonOffset = p.integerIn("xon_offset_bytes", 0, buffer);
        final long headroom = p.integer("headroom_bytes", SwitchConfig.HEADROOM_AUTO, 0, buffer);
        p.finish();
        final YamlFields w = s.childOrEmpty("wred");
        final int[] wredPrios = w.intList("priorities", new int[] {nic.dataPriority()}, 0, 7);
        final long kmin = w.integerIn("kmin_bytes", 0, buffer);
        final long kmax = w.integerIn("kmax_bytes", 0, buffer);
        if (kmax < kmin) {
            throw w.fieldError("kmax_bytes", "expected kmax_bytes >= kmin_bytes (" + kmin + "), got " + kmax);
        }
        final double pmax = w.number("pmax");
        final boolean ecn = w.bool("ecn");
        final long notEctK = w.integer("not_ect_drop_bytes", kmin, 0, buffer);
        final List<Scenario.RateWred> byRate = w.has("by_rate") ? byRate(w.mappings("by_rate"), buffer) : List.of();
        w.finish();
        final YamlFields e = s.childOrEmpty("egress");
        final boolean egressDynamic = "dynamic".equals(e.choice("mode"));
        final long queueLimit = e.integerIn("queue_limit_bytes", 1, buffer);
        final double egressAlpha = e.number("alpha");
        e.finish();
        final int[] strict = s.intList("strict_priorities",
            ScenarioField.priorities((int) s.row("strict_priorities").defaultValue()), 0, 7);
        final YamlFields c = s.childOrEmpty("cam");
        final int camDepth = (int) c.integer("depth");
        final int camSample = (int) c.integer("sample_every_packets");
        final long camCongested = c.isScalar("congested_bytes") && "kmin".equals(c.string("congested_bytes"))
            ? SwitchConfig.CAM_THRESHOLD_KMIN : c.integer("congested_bytes", SwitchConfig.CAM_THRESHOLD_KMIN, 0, buffer);
        c.finish();

        // queueing architecture (the RCM paper §4.1)
        final boolean ioq = "input_output_queued".equals(s.choice("queueing"));
        final long voq = s.integer("voq_bytes");
        final long oq = s.integer("output_queue_bytes");
        if (ioq) {
            checkInputOutputQueues(s, nic, topo, pfcOn, headroom, voq, oq);
        }
        final Scenario.Rcm rcm = rcm(s.childOrEmpty("rcm"), nic, ioq, camDepth);
        final Scenario.UetEgress uet = uet(s, nic, ioq, buffer);
        s.finish();
        return new Scenario.SwitchSpec(buffer, pfcOn, pfcPrios, dynamic, xoff, xon, alpha, xonOffset, headroom, wredPrios,
            kmin, kmax, pmax, ecn, notEctK, egressDynamic, queueLimit, egressAlpha, strict, camDepth, camSample, ioq, voq, oq,
            camCongested, rcm, byRate, uet);
    }

    /**
     * uet-htsim's egress options: {@code queue_limit_bytes}, {@code trimming} and {@code ecn}, with the
     * rules that trimming and a fixed queue size need output queueing and a header fits in the largest frame.
     */
    private static Scenario.UetEgress uet(final YamlFields s, final Scenario.NicSpec nic, final boolean ioq, final long buffer) {
        final long queueLimit = s.integerIn("queue_limit_bytes", 0, buffer);
        if (queueLimit > 0 && ioq) {
            throw s.fieldError("queue_limit_bytes", "needs switch.queueing: output_queued (a fixed size for the output-queued"
                + " switch's egress queues), got " + queueLimit);
        }
        final YamlFields t = s.childOrEmpty("trimming");
        final boolean trimming = t.bool("enabled");
        final int maxFrame = RoceFraming.frameBytes(nic.mtuBytes(), RoceFraming.RETH_BYTES);
        final int header = (int) t.integerIn("header_bytes", 64, maxFrame);
        if (trimming && ioq) {
            throw t.fieldError("enabled", "needs switch.queueing: output_queued (trimming replaces the output-queued"
                + " switch's tail drop)");
        }
        t.finish();
        final YamlFields e = s.childOrEmpty("ecn");
        final boolean atDequeue = e.bool("at_dequeue");
        e.finish();
        return new Scenario.UetEgress(trimming, header, queueLimit, atDequeue);
    }

    /** {@code switch.wred.by_rate}: one WRED profile per link rate, each rate once. */
    private static List<Scenario.RateWred> byRate(final List<YamlFields> entries, final long buffer) {
        final List<Scenario.RateWred> out = new ArrayList<>();
        for (final YamlFields r : entries) {
            final long rate = r.scaled("rate_gbps");
            final long rkmin = r.integerIn("kmin_bytes", 0, buffer);
            final long rkmax = r.integerIn("kmax_bytes", 0, buffer);
            if (rkmax < rkmin) {
                throw r.fieldError("kmax_bytes", "expected kmax_bytes >= kmin_bytes (" + rkmin + "), got " + rkmax);
            }
            final double rpmax = r.number("pmax");
            for (final Scenario.RateWred x : out) {
                if (x.rateBitsPerSec() == rate) {
                    throw r.fieldError("rate_gbps", "rate " + Units.gbpsFromBitsPerSec(rate) + " Gb/s is listed twice");
                }
            }
            r.finish();
            out.add(new Scenario.RateWred(rate, rkmin, rkmax, rpmax));
        }
        return List.copyOf(out);
    }

    /** Input-output queueing: an output queue holds a maximum frame; a VOQ more than that and the PFC headroom. */
    private static void checkInputOutputQueues(final YamlFields s, final Scenario.NicSpec nic, final Scenario.Topology topo,
                                               final boolean pfcOn, final long headroom, final long voq, final long oq) {
        final int maxFrame = RoceFraming.frameBytes(nic.mtuBytes(), RoceFraming.RETH_BYTES);
        if (oq < maxFrame) {
            throw s.fieldError("output_queue_bytes", "expected at least one maximum frame (" + maxFrame
                + " bytes at nic.mtu_bytes " + nic.mtuBytes() + "), got " + oq);
        }
        // the PFC headroom is the top of each VOQ: XOFF at voq_bytes - headroom
        long need = maxFrame;
        String why = "one maximum frame";
        if (pfcOn) {
            for (final Scenario.Link l : new Scenario.Link[] {topo.hostLink(), topo.fabricLink()}) {
                final long h = headroom >= 0 ? headroom
                    : SwitchConfig.requiredHeadroomBytes(l.rateBitsPerSec(), l.delayPs(), maxFrame);
                if (h + 1 > need) {
                    need = h + 1;
                    why = "the PFC headroom (" + h + " bytes" + (headroom >= 0 ? ", switch.pfc.headroom_bytes"
                        : " for " + Units.gbpsFromBitsPerSec(l.rateBitsPerSec()) + " Gb/s, "
                        + Units.wholeNsFromPs(l.delayPs()) + " ns links") + ")";
                }
            }
        }
        if (voq < need) {
            throw s.fieldError("voq_bytes", "expected more than " + why + ", got " + voq);
        }
    }

    /**
     * {@code switch.rcm} (the RCM paper §3): every field of the switch model's {@code RcmConfig}, with
     * the cross-field rules of {@code RcmConfig.validate}, reported with the field's path.
     */
    private static Scenario.Rcm rcm(final YamlFields r, final Scenario.NicSpec nic, final boolean ioq, final int camDepth) {
        final boolean detection = r.bool("detection");
        final boolean cfr = r.bool("flow_recognition");
        final boolean rcc = r.bool("regional_control");
        final boolean sar = r.bool("adaptive_routing");
        final boolean prioritiesGiven = r.has("priorities");
        final int[] prios = r.intList("priorities", new int[] {nic.dataPriority()}, 0, 7);
        if (prios.length == 0) {
            throw r.fieldError("priorities", "expected at least one priority, got []");
        }
        final double wq = r.number("w_q");
        final long qEq = r.integer("q_eq_bytes");
        final int fbBits = (int) r.integer("fb_bits");
        final double w = r.number("w");
        final double gd = r.number("g_d");
        final int fbMax = (1 << fbBits) - 1;
        if (gd != RcmConfig.GD_AUTO && gd * fbMax > 1.0) {
            throw r.fieldError("g_d", "expected 0 (auto: 1 / (2 x " + fbMax + ")) or a value with (2^fb_bits - 1) x g_d <= 1, i.e. <= "
                + (1.0 / fbMax) + ", got " + gd);
        }
        final long sample = r.integer("sample_bytes");
        final int notif = (int) r.integer("notification_priority");
        for (final int p : prios) {
            if (p == notif) {
                throw r.fieldError(prioritiesGiven ? "priorities" : "notification_priority",
                    "notification_priority (" + notif + ") must not be one of the watched priorities "
                        + Arrays.toString(prios) + " (notifications need a priority of their own)");
            }
        }
        final long lifetimePs = r.scaled("notification_lifetime_us");
        final long windowPs = r.scaled("window_period_us");
        final boolean compound = r.bool("compound_window_decrease");
        final int harmfulMin = (int) r.integerIn("harmful_min_entries", 1, camDepth);
        final boolean latchHarmful = r.bool("latch_harmful_set");
        final int detourEntries = (int) r.integer("detour_table_entries");
        if (Integer.bitCount(detourEntries) != 1) {
            throw r.fieldError("detour_table_entries", "expected a power of two in [1, 1048576], got " + detourEntries);
        }
        final long detourIdlePs = r.scaled("detour_idle_us");
        if (rcc && !detection) {
            throw r.fieldError("regional_control", "needs switch.rcm.detection: true (RCC reacts to detected congestion)");
        }
        if (rcc && !ioq) {
            throw r.fieldError("regional_control", "needs switch.queueing: input_output_queued (held packets wait in their VOQs)");
        }
        if (sar && !(detection && cfr)) {
            throw r.fieldError("adaptive_routing",
                "needs switch.rcm.detection and switch.rcm.flow_recognition: true (SAR moves flows that miss the CAM)");
        }
        r.finish();
        return new Scenario.Rcm(detection, cfr, rcc, sar, prios, wq, qEq, fbBits, w, gd, sample, notif, lifetimePs, windowPs,
            compound, harmfulMin, latchHarmful, detourEntries, detourIdlePs);
    }
}
