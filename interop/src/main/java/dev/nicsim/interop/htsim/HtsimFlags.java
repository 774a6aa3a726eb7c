package dev.nicsim.interop.htsim;

import dev.nicsim.scenario.ScenarioException;

import java.util.List;

/**
 * uet-htsim's command-line flags as its validation plans write them ({@code main_uec.cpp}), read in
 * order as htsim reads them: {@code -end US}, {@code -paths N}, {@code -sender_cc_only},
 * {@code -receiver_cc_only}, {@code -sender_cc}, {@code -receiver_cc},
 * {@code -load_balancing_algo oblivious|bitmap|reps|mixed}, {@code -q PACKETS},
 * {@code -ecn KMIN KMAX} (packets), {@code -cwnd PACKETS}, {@code -linkspeed MBPS},
 * {@code -failed K}, {@code -disable_trim}, {@code -sack_threshold BYTES}, {@code -sleek},
 * {@code -topo FILE}, {@code -seed N}. Every other flag is refused in one line naming it.
 * {@code -sleek} and {@code -failed K} (K above 0) are refused too: nicsim models neither.
 *
 * <p>Defaults are htsim's: NSCC alone, {@code mixed}, 64 paths, ACK every 16,384 bytes, trimming on,
 * 100 Gb/s, seed 13, no end time (htsim runs until every connection finishes).
 *
 * <p>Thread-safety: immutable.
 *
 * @param endUs          {@code -end}, us, or -1 when absent
 * @param paths          {@code -paths}: entropy values per connection
 * @param senderCc       NSCC at the sender
 * @param receiverCc     RCCC at the receiver
 * @param policy         {@code -load_balancing_algo}
 * @param queuePackets   {@code -q}, packets, or -1 when absent (1 BDP with trimming, 5 without)
 * @param ecnMinPackets  {@code -ecn} KMIN, packets, or -1 when absent (20 % of the BDP)
 * @param ecnMaxPackets  {@code -ecn} KMAX, packets, or -1 when absent (80 % of the BDP)
 * @param cwndPackets    {@code -cwnd}, packets, or -1 when absent (NSCC's own initial window)
 * @param linkspeedMbps  {@code -linkspeed}, Mb/s (100,000 by default)
 * @param trimming       false with {@code -disable_trim}
 * @param sackThresholdBytes {@code -sack_threshold}, bytes
 * @param topo           {@code -topo}, or null when absent
 * @param seed           {@code -seed}
 */
public record HtsimFlags(long endUs, int paths, boolean senderCc, boolean receiverCc, String policy, int queuePackets,
                         int ecnMinPackets, int ecnMaxPackets, int cwndPackets, double linkspeedMbps, boolean trimming,
                         long sackThresholdBytes, String topo, long seed) {
    /** htsim's {@code path_entropy_size} default. */
    public static final int DEFAULT_PATHS = 64;
    /** htsim's {@code UecSink::_bytes_unacked_threshold} default, bytes. */
    public static final long DEFAULT_SACK_THRESHOLD_BYTES = 16_384;
    /** htsim's {@code HOST_NIC} default link speed, Mb/s. */
    public static final double DEFAULT_LINKSPEED_MBPS = 100_000;
    /** htsim's default seed. */
    public static final long DEFAULT_SEED = 13;
    /** The path policies of {@code -load_balancing_algo} the import maps. */
    public static final List<String> POLICIES = List.of("oblivious", "bitmap", "reps", "mixed");

    /**
     * Reads flags.
     *
     * @param args the flags, as separate words (e.g. {@code ["-end", "1000", "-sender_cc_only"]})
     * @return the settings
     * @throws ScenarioException {@code FLAG: why} for an unknown, malformed or unmodelled flag
     */
    public static HtsimFlags parse(final List<String> args) {
        long end = -1;
        int paths = DEFAULT_PATHS;
        boolean sender = true;
        boolean receiver = false;
        String policy = "mixed";
        int q = -1;
        int kmin = -1;
        int kmax = -1;
        int cwnd = -1;
        double speed = DEFAULT_LINKSPEED_MBPS;
        boolean trim = true;
        long sack = DEFAULT_SACK_THRESHOLD_BYTES;
        String topo = null;
        long seed = DEFAULT_SEED;
        int i = 0;
        while (i < args.size()) {
            final String f = args.get(i);
            switch (f) {
                case "-end" -> end = integer(args, i, 1, 100_000_000);
                case "-paths" -> paths = (int) integer(args, i, 1, 65_536);
                case "-sender_cc_only" -> {
                    sender = true;
                    receiver = false;
                }
                case "-receiver_cc_only" -> {
                    sender = false;
                    receiver = true;
                }
                case "-sender_cc" -> sender = true;
                case "-receiver_cc" -> receiver = true;
                case "-load_balancing_algo" -> {
                    policy = value(args, i, "oblivious, bitmap, reps or mixed");
                    if (!POLICIES.contains(policy)) {
                        throw bad(f, "expected oblivious, bitmap, reps or mixed, got '" + policy + "'");
                    }
                }
                case "-q" -> q = (int) integer(args, i, 1, 1_000_000);
                case "-ecn" -> {
                    kmin = (int) integer(args, i, i + 1, 0, 1_000_000);
                    kmax = (int) integer(args, i, i + 2, 0, 1_000_000);
                    if (kmax < kmin) {
                        throw bad(f, "expected KMIN <= KMAX (packets), got " + kmin + " " + kmax);
                    }
                    i++;
                }
                case "-cwnd" -> cwnd = (int) integer(args, i, 1, 1_000_000);
                case "-linkspeed" -> speed = number(args, i, 1, 1_600_000);
                case "-failed" -> {
                    final long k = integer(args, i, 0, 1_000_000);
                    if (k > 0) {
                        throw bad(f, k + ": links at 25 % speed (htsim: every ToR's links to its first " + k + " uplinks)"
                            + " cannot be expressed: nicsim's fat_tree and leaf_spine give every switch-to-switch link one rate");
                    }
                }
                case "-disable_trim" -> trim = false;
                case "-sack_threshold" -> sack = integer(args, i, 0, Integer.MAX_VALUE);
                case "-sleek" -> throw bad(f, "SLEEK, htsim's sender-side loss-recovery heuristic, is not modelled");
                case "-topo" -> topo = value(args, i, "a topology file");
                case "-seed" -> seed = integer(args, i, 0, Long.MAX_VALUE);
                case "-tm" -> throw bad(f, "give the connection matrix as the command's CM argument");
                default -> throw bad(f, "not a flag the import maps (it reads -end, -paths, -sender_cc_only, -receiver_cc_only,"
                    + " -sender_cc, -receiver_cc, -load_balancing_algo, -q, -ecn, -cwnd, -linkspeed, -failed, -disable_trim,"
                    + " -sack_threshold, -sleek, -topo, -seed)");
            }
            i += switch (f) {
                case "-sender_cc_only", "-receiver_cc_only", "-sender_cc", "-receiver_cc", "-disable_trim" -> 1;
                default -> 2;
            };
        }
        return new HtsimFlags(end, paths, sender, receiver, policy, q, kmin, kmax, cwnd, speed, trim, sack, topo, seed);
    }

    private static ScenarioException bad(final String flag, final String why) {
        return new ScenarioException(flag + ": " + why);
    }

    /** The word after flag {@code args[i]}. */
    private static String value(final List<String> args, final int i, final String expected) {
        return word(args, i, i + 1, expected);
    }

    /** Word {@code at} of flag {@code args[flag]}'s values. */
    private static String word(final List<String> args, final int flag, final int at, final String expected) {
        if (at >= args.size()) {
            throw bad(args.get(flag), "expected " + expected + " after it, found nothing");
        }
        return args.get(at);
    }

    private static long integer(final List<String> args, final int i, final long min, final long max) {
        return integer(args, i, i + 1, min, max);
    }

    private static long integer(final List<String> args, final int i, final int at, final long min, final long max) {
        final String flag = args.get(i);
        final String v = word(args, i, at, "an integer in [" + min + ", " + max + "]");
        try {
            final long x = Long.parseLong(v);
            if (x >= min && x <= max) {
                return x;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw bad(flag, "expected an integer in [" + min + ", " + max + "], got '" + v + "'");
    }

    private static double number(final List<String> args, final int i, final double min, final double max) {
        final String v = value(args, i, "a number in [" + min + ", " + max + "]");
        try {
            final double x = Double.parseDouble(v);
            if (x >= min && x <= max) {
                return x;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw bad(args.get(i), "expected a number in [" + (long) min + ", " + (long) max + "], got '" + v + "'");
    }
}
