package dev.nicsim.scenario;

import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.nic.NicConfig;
import dev.nicsim.pcc.PccEventType;

/**
 * Reads {@code nic}, {@code nic.path} and {@code nic.emulator} (docs/scenarios.md, "nic"): transport settings, the
 * DSCP/priority pairs with their consistency rules, the initial PSN, and the uNIC CC processor.
 * Keys, ranges and defaults are the {@link ScenarioSchema} rows.
 *
 * <p>Thread-safety: stateless.
 */
final class NicSection {
    private NicSection() {
    }

    /**
     * Reads the section.
     *
     * @param n        the {@code nic} mapping (empty for all defaults)
     * @param firmware whether the algorithm is firmware (the emulator's default clock is then the DPA's)
     * @return the settings
     * @throws ScenarioException naming the field of any bad input
     */
    static Scenario.NicSpec read(final YamlFields n, final boolean firmware) {
        final YamlFields path = n.childOrEmpty("path");
        final Scenario.NicSpec spec = new Scenario.NicSpec(
            (int) n.integer("mtu_bytes"),
            (int) n.integer("ack_every_packets"),
            n.scaled("cnp_interval_us"),
            n.bool("np_enabled"),
            n.scaled("rto_us"),
            (int) n.integer("tx_burst_packets"),
            (int) n.integer("data_priority"),
            (int) n.integer("data_dscp"),
            (int) n.integer("cnp_priority"),
            (int) n.integer("cnp_dscp"),
            initialPsn(n),
            emulator(n.childOrEmpty("emulator"), firmware),
            // ACKs default to the data priority and DSCP as given
            (int) n.integer("ack_priority", n.has("data_priority") ? n.integer("data_priority") : n.row("ack_priority")
                .defaultScaled(), 0, 7),
            (int) n.integer("ack_dscp", n.has("data_dscp") ? n.integer("data_dscp") : n.row("ack_dscp").defaultScaled(), 0, 63),
            "selective_repeat".equals(n.choice("loss_recovery")),
            (int) n.integer("ack_coalesce_bytes"),
            (int) n.integer("sr_window_packets"),
            (int) n.integer("sr_loss_threshold_packets"),
            NicConfig.PATH_POLICY_NAMES.indexOf(path.choice("policy")), pathEntropies(path));
        path.finish();
        if (Integer.bitCount(spec.srWindowPackets()) != 1) {
            throw n.fieldError("sr_window_packets", "expected a power of two, got " + spec.srWindowPackets());
        }
        if (spec.dataDscp() == spec.cnpDscp() && spec.dataPriority() != spec.cnpPriority()) {
            throw n.fieldError("cnp_dscp", "switches map DSCP to priority, so CNPs on the data DSCP " + spec.dataDscp()
                + " must also use the data priority " + spec.dataPriority() + ", got cnp_priority " + spec.cnpPriority());
        }
        if (spec.ackDscp() == spec.dataDscp() && spec.ackPriority() != spec.dataPriority()) {
            throw n.fieldError(n.has("ack_dscp") ? "ack_dscp" : "ack_priority", "switches map DSCP to priority, so ACKs on the data DSCP "
                + spec.dataDscp() + " must also use the data priority " + spec.dataPriority() + ", got ack_priority "
                + spec.ackPriority() + " (give ack_dscp too)");
        }
        if (spec.ackDscp() == spec.cnpDscp() && spec.ackPriority() != spec.cnpPriority()) {
            throw n.fieldError("ack_dscp", "ACKs on the CNP DSCP " + spec.cnpDscp() + " must use the CNP priority "
                + spec.cnpPriority() + ", got ack_priority " + spec.ackPriority());
        }
        n.finish();
        return spec;
    }

    /** {@code nic.path.entropies}: a power of two (the policies' round robin XORs the index with a random mask). */
    private static int pathEntropies(final YamlFields path) {
        final int e = (int) path.integer("entropies");
        if (Integer.bitCount(e) != 1) {
            throw path.fieldError("entropies", "expected a power of two, got " + e);
        }
        return e;
    }

    /** {@code nic.initial_psn}: {@code random} ({@link Scenario.NicSpec#RANDOM_PSN}) or a PSN 0..2^24 - 1; default 0. */
    private static int initialPsn(final YamlFields n) {
        final ScenarioField row = n.row("initial_psn");
        if (!n.has("initial_psn")) {
            return (int) n.integer("initial_psn");
        }
        final String v = n.string("initial_psn");
        if ("random".equals(v)) {
            return Scenario.NicSpec.RANDOM_PSN;
        }
        try {
            final long psn = Long.parseLong(v.replace("_", ""));
            if (psn >= row.min() && psn <= row.max()) {
                return (int) psn;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw n.fieldError("initial_psn", "expected random or an integer in [" + (long) row.min() + ", " + (long) row.max()
            + "], got '" + v + "'");
    }

    private static Scenario.Emulator emulator(final YamlFields e, final boolean firmware) {
        final boolean enabled = e.bool("enabled");
        final int cores = (int) e.integer("cores");
        final int threads = (int) e.integer("threads_per_core");
        // firmware runs on the RISC-V cores: the DPA-like default clock (docs/firmware.md)
        final long clockHz = firmware ? e.scaled("clock_ghz", FirmwareProvider.DEFAULT_CLOCK_GHZ) : e.scaled("clock_ghz");
        final long maxInstructions = e.integer("max_instructions_per_event");
        final int ring = (int) e.integer("ring_capacity");
        final int cache = (int) e.integer("context_cache_entries");
        final int dispatch = (int) e.integer("dispatch_cycles");
        final int hit = (int) e.integer("context_hit_cycles");
        final int miss = (int) e.integer("context_miss_cycles");
        final int writeBack = (int) e.integer("write_back_cycles");
        final boolean coalescing = e.bool("coalescing");
        final int highWater = (int) e.integer("high_water_mark");
        if (highWater > ring) {
            throw e.fieldError("high_water_mark", "expected at most ring_capacity (" + ring + "), got " + highWater);
        }
        final YamlFields h = e.childOrEmpty("handler_cycles");
        final int[] handler = new int[PccEventType.COUNT];
        for (int t = 0; t < handler.length; t++) {
            handler[t] = (int) h.integer(PccEventType.shortName(t));
        }
        h.finish();
        e.finish();
        return new Scenario.Emulator(enabled, cores, threads, clockHz, ring, cache, dispatch, hit, miss, writeBack,
            coalescing, highWater, handler, maxInstructions);
    }
}
