package dev.nicsim.interop.htsim;

import dev.nicsim.scenario.Ns3Lines;
import dev.nicsim.scenario.ScenarioException;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A uet-htsim topology file ({@code .topo}; htsim's {@code FatTreeTopologyCfg::read_cfg}) of a
 * two-tier leaf-spine, the only kind its validation plans use: {@code Nodes}, {@code Tiers 2},
 * {@code Podsize}, then per tier ({@code Tier 0} the ToRs, {@code Tier 1} the spines)
 * {@code Downlink_speed_Gbps}, {@code Radix_Down}, {@code Radix_Up} (tier 0), {@code Downlink_Latency_ns},
 * {@code Switch_Latency_ns} and optionally {@code Oversubscribed}. Tier 0's downlinks are the host
 * links, tier 1's the ToR-spine links; every ToR has one link to every spine.
 *
 * <p>Thread-safety: immutable.
 *
 * @param file            the file read
 * @param nodes           hosts
 * @param leaves          ToR switches: nodes / tier 0 {@code Radix_Down}
 * @param spines          spine switches: tier 0 {@code Radix_Up}
 * @param hostsPerLeaf    tier 0 {@code Radix_Down}
 * @param hostRateGbps    tier 0 {@code Downlink_speed_Gbps}, Gb/s
 * @param hostDelayNs     tier 0 {@code Downlink_Latency_ns}, ns
 * @param fabricRateGbps  tier 1 {@code Downlink_speed_Gbps}, Gb/s
 * @param fabricDelayNs   tier 1 {@code Downlink_Latency_ns}, ns
 * @param oversubscribed  tier 0 {@code Oversubscribed}, 1 when absent
 */
public record HtsimTopology(Path file, int nodes, int leaves, int spines, int hostsPerLeaf, double hostRateGbps,
                            long hostDelayNs, double fabricRateGbps, long fabricDelayNs, int oversubscribed) {
    /** nicsim's largest {@code leaves}, {@code spines} and {@code hosts_per_leaf}. */
    public static final int MAX_SWITCHES = 256;

    /** @return the one-way network diameter in links (host, ToR, spine, ToR, host): 4 */
    public int diameterLinks() {
        return 4;
    }

    /** @return the diameter latency, ns: two host links and two ToR-spine links */
    public long diameterLatencyNs() {
        return 2 * hostDelayNs + 2 * fabricDelayNs;
    }

    /**
     * Reads a topology file.
     *
     * @param file the file
     * @return the leaf-spine it describes
     * @throws ScenarioException {@code file:line: ...} for a missing file, a malformed or unknown line, or
     *                           a topology nicsim's {@code leaf_spine} cannot build
     */
    public static HtsimTopology read(final Path file) {
        final Ns3Lines lines = Ns3Lines.read(file, "topology file");
        final Map<String, Ns3Lines.Line> top = new HashMap<>();
        @SuppressWarnings("unchecked")
        final Map<String, Ns3Lines.Line>[] tier = new Map[] {new HashMap<>(), new HashMap<>()};
        int current = -1;
        int lastLine = 1;
        for (final Ns3Lines.Line l : lines.lines()) {
            lastLine = l.number();
            final String key = l.tokens()[0];
            lines.expectTokens(l, 2, key + " VALUE");
            if (key.equals("Tier")) {
                final int t = (int) lines.integer(l, 1, "Tier", 0, 1);
                if (t != current + 1) {
                    throw lines.error(l.number(), "Tier: expected Tier " + (current + 1) + " next, got " + t);
                }
                current = t;
                continue;
            }
            final boolean topKey = key.equals("Nodes") || key.equals("Tiers") || key.equals("Podsize");
            final boolean tierKey = key.equals("Downlink_speed_Gbps") || key.equals("Radix_Down") || key.equals("Radix_Up")
                || key.equals("Downlink_Latency_ns") || key.equals("Switch_Latency_ns") || key.equals("Oversubscribed");
            if (topKey && current < 0) {
                put(lines, top, l);
            } else if (tierKey && current >= 0) {
                put(lines, tier[current], l);
            } else if (key.equals("Bundlesize") || key.startsWith("Queue")) {
                throw lines.error(l.number(), key + ": not supported by the import (the validation plans' topologies give"
                    + " none): nicsim's leaf_spine has one link per ToR-spine pair and the import sizes queues itself");
            } else {
                throw lines.error(l.number(), "expected " + (current < 0 ? "Nodes, Tiers, Podsize or 'Tier 0'"
                    : "Downlink_speed_Gbps, Radix_Down, Radix_Up, Downlink_Latency_ns, Switch_Latency_ns, Oversubscribed or"
                        + " 'Tier 1'") + ", got '" + key + "'");
            }
        }
        final Ns3Lines.Line tiers = need(lines, top, "Tiers", lastLine, "");
        if (lines.integer(tiers, 1, "Tiers", 1, 3) != 2) {
            throw lines.error(tiers.number(), "Tiers: only two-tier leaf-spines are imported (nicsim's leaf_spine), got "
                + tiers.tokens()[1]);
        }
        if (current != 1) {
            throw lines.error(lastLine, "expected sections 'Tier 0' and 'Tier 1', found " + (current + 1));
        }
        final Ns3Lines.Line nodesLine = need(lines, top, "Nodes", lastLine, "");
        final int nodes = (int) lines.integer(nodesLine, 1, "Nodes", 2, HtsimMatrix.MAX_NODES);
        final Ns3Lines.Line pod = need(lines, top, "Podsize", lastLine, "");
        if (lines.integer(pod, 1, "Podsize", 1, HtsimMatrix.MAX_NODES) != nodes) {
            throw lines.error(pod.number(), "Podsize: a two-tier leaf-spine is one pod of all " + nodes + " nodes, got "
                + pod.tokens()[1]);
        }
        final Ns3Lines.Line down0 = need(lines, tier[0], "Radix_Down", lastLine, " in Tier 0");
        final int hostsPerLeaf = (int) lines.integer(down0, 1, "Radix_Down", 1, MAX_SWITCHES);
        if (nodes % hostsPerLeaf != 0 || nodes / hostsPerLeaf > MAX_SWITCHES) {
            throw lines.error(down0.number(), "Radix_Down: Nodes " + nodes + " must be a multiple of it giving at most "
                + MAX_SWITCHES + " ToRs, got " + hostsPerLeaf);
        }
        final int leaves = nodes / hostsPerLeaf;
        final Ns3Lines.Line up0 = need(lines, tier[0], "Radix_Up", lastLine, " in Tier 0");
        final int spines = (int) lines.integer(up0, 1, "Radix_Up", 1, MAX_SWITCHES);
        final Ns3Lines.Line down1 = need(lines, tier[1], "Radix_Down", lastLine, " in Tier 1");
        if (lines.integer(down1, 1, "Radix_Down", 1, 1 << 20) != leaves) {
            throw lines.error(down1.number(), "Radix_Down: a spine links once to each of the " + leaves + " ToRs (Nodes "
                + nodes + " / Radix_Down " + hostsPerLeaf + "), got " + down1.tokens()[1]);
        }
        if (tier[1].containsKey("Radix_Up")) {
            throw lines.error(tier[1].get("Radix_Up").number(), "Radix_Up: the top tier of a leaf-spine has no uplinks");
        }
        int oversub = 1;
        final Ns3Lines.Line os = tier[0].get("Oversubscribed");
        if (os != null) {
            oversub = (int) lines.integer(os, 1, "Oversubscribed", 1, 1024);
            if ((long) oversub * spines != hostsPerLeaf) {
                throw lines.error(os.number(), "Oversubscribed: Radix_Down / Radix_Up of Tier 0 is " + hostsPerLeaf + "/"
                    + spines + ", got " + oversub);
            }
        }
        if (tier[1].containsKey("Oversubscribed")) {
            final Ns3Lines.Line o = tier[1].get("Oversubscribed");
            if (lines.integer(o, 1, "Oversubscribed", 1, 1024) != 1) {
                throw lines.error(o.number(), "Oversubscribed: the spines of a leaf-spine have no uplinks, expected 1");
            }
        }
        for (int t = 0; t < 2; t++) {
            final Ns3Lines.Line sl = tier[t].get("Switch_Latency_ns");
            if (sl != null && lines.integer(sl, 1, "Switch_Latency_ns", 0, 1_000_000_000) != 0) {
                throw lines.error(sl.number(), "Switch_Latency_ns: nicsim switches forward with no fixed latency; expected 0,"
                    + " got " + sl.tokens()[1]);
            }
        }
        final String in0 = " in Tier 0";
        final String in1 = " in Tier 1";
        final double hostRate = lines.number(need(lines, tier[0], "Downlink_speed_Gbps", lastLine, in0), 1,
            "Downlink_speed_Gbps", 0.001, 1600);
        final double fabricRate = lines.number(need(lines, tier[1], "Downlink_speed_Gbps", lastLine, in1), 1,
            "Downlink_speed_Gbps", 0.001, 1600);
        final long hostDelay = lines.integer(need(lines, tier[0], "Downlink_Latency_ns", lastLine, in0), 1,
            "Downlink_Latency_ns", 0, 1_000_000_000);
        final long fabricDelay = lines.integer(need(lines, tier[1], "Downlink_Latency_ns", lastLine, in1), 1,
            "Downlink_Latency_ns", 0, 1_000_000_000);
        return new HtsimTopology(file, nodes, leaves, spines, hostsPerLeaf, hostRate, hostDelay, fabricRate, fabricDelay,
            oversub);
    }

    private static void put(final Ns3Lines lines, final Map<String, Ns3Lines.Line> m, final Ns3Lines.Line l) {
        final Ns3Lines.Line before = m.put(l.tokens()[0], l);
        if (before != null) {
            throw lines.error(l.number(), l.tokens()[0] + ": given twice (also line " + before.number() + ")");
        }
    }

    private static Ns3Lines.Line need(final Ns3Lines lines, final Map<String, Ns3Lines.Line> m, final String key,
                                      final int lastLine, final String where) {
        final Ns3Lines.Line l = m.get(key);
        if (l == null) {
            throw lines.error(lastLine, "expected a '" + key + " VALUE' line" + where + ", found none");
        }
        return l;
    }
}
