package dev.nicsim.nic;

import dev.nicsim.sim.RngStreams;

/**
 * Per-packet entropy of one requester QP (packet spraying): which entropy value (EV, carried as the RoCEv2
 * UDP source port that switches hash with ECMP) each WRITE/SEND data packet gets, and what the echoed EVs of
 * ACKs, NAKs and timeouts teach the policy. The policies are uet-htsim's ({@code uec_mp.cpp}, classes
 * {@code UecMpOblivious}, {@code UecMpBitmap}, {@code UecMpReps} with its {@code CircularBufferREPS}, and
 * {@code UecMpMixed}); docs/uet.md, "Spraying", states them:
 *
 * <ul>
 * <li>{@link NicConfig#PATH_OBLIVIOUS}: round robin over the {@code n} EVs, index {@code (i XOR x) mod n}
 *     with {@code x} drawn at random at the start of every cycle of {@code n} packets, so each cycle uses every
 *     EV once in a shuffled order. Feedback is ignored.</li>
 * <li>{@link NicConfig#PATH_BITMAP}: the same round robin, skipping EVs whose penalty is above 0. An ACK with
 *     ECN echo adds 1, a NACK 4, a timeout 15 (the cap). A call that meets penalised EVs takes 1 off the first
 *     one it meets and moves on to the next unpenalised EV; after {@code n + 1} penalised ones it sends on the
 *     last. A timeout penalises EV index 0: uet-htsim passes {@code UNKNOWN_EV} (0) because the sender keeps no
 *     EV per packet.</li>
 * <li>{@link NicConfig#PATH_REPS}: EVs of ACKs without ECN go into an 8-entry ring (the oldest overwritten);
 *     a packet takes the oldest unused one, or a random EV when none is left. A timeout freezes the ring for
 *     10 ms: packets then cycle through the cached EVs, used or not. The first feedback after the freeze ends
 *     clears the ring and the next 16 packets explore random EVs. (uet-htsim refuses to freeze without
 *     trimming; here it freezes either way.)</li>
 * <li>{@link NicConfig#PATH_MIXED}: the EV of every ACK without ECN joins a FIFO (unbounded, as uet-htsim's
 *     list); a packet takes the FIFO's head, else the bitmap's choice; feedback also feeds the bitmap.</li>
 * </ul>
 * EV index {@code i} of a QP whose own port is {@code p} is UDP source port {@code 0xC000 | ((p ^ i) & 0x3FFF)},
 * so an echoed port maps back to its index. Random draws come from the QP's own SplitMix64 stream, seeded per
 * flow ({@link #start}).
 *
 * <p>State is in primitive arrays allocated once per pooled QP; the mixed FIFO doubles when it passes its peak.
 * Nothing else allocates. Thread-safety: not thread-safe; owned by its QP on the simulation thread.
 */
final class PathSelector {
    /** Feedback: an ACK without ECN echo. */
    static final int GOOD = 0;
    /** Feedback: an ACK with ECN echo. */
    static final int ECN = 1;
    /** Feedback: a NACK. */
    static final int NACK = 2;
    /** Feedback: a retransmission timeout. */
    static final int TIMEOUT = 3;
    /** Bitmap penalty of an ECN echo. */
    static final int PENALTY_ECN = 1;
    /** Bitmap penalty of a NACK. */
    static final int PENALTY_NACK = 4;
    /** Bitmap penalty of a timeout, also the cap of an EV's penalty. */
    static final int PENALTY_MAX = 15;
    /** REPS: good EVs the ring holds. */
    static final int REPS_CACHE_EVS = 8;
    /** REPS: how long a timeout freezes the ring, ps (10 ms). */
    static final long REPS_FREEZE_PS = 10_000_000_000L;
    /** REPS: packets sent on random EVs after a freeze ends. */
    static final int REPS_EXPLORE_PACKETS = 16;

    private static final int PORT_BASE = 0xC000;
    private static final int PORT_BITS = 0x3FFF;
    private static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;

    private final int policy;
    private final int entropies;
    private final int mask;
    private final long[] cells;

    /** The QP's own UDP source port (EV index 0 XOR-ed into every EV). */
    private int basePort;
    /** SplitMix64 state of the QP's random stream. */
    private long rngState;

    // round robin (oblivious, bitmap, mixed)
    private int rrIndex;
    private int rrXor;
    /** Bitmap penalty per EV index, 0..15; null unless bitmap or mixed. */
    private final byte[] penalty;

    // REPS ring
    private final int[] repsEv;
    private final boolean[] repsFresh;
    private int repsHead;
    private int repsCount;
    private int repsFreshCount;
    private int repsFrozenNext;
    private boolean repsFrozen;
    private long repsThawPs;
    private int repsExplore;

    // mixed FIFO of good EV indexes
    private int[] fifo;
    private int fifoHead;
    private int fifoCount;

    /**
     * Creates the selector of a pooled QP.
     *
     * @param policy    {@link NicConfig#PATH_OBLIVIOUS} .. {@link NicConfig#PATH_MIXED}
     * @param entropies EVs per flow, a power of two in 1..16384
     * @param cells     the NIC's counter cells ({@link NicCounters#PATH}..)
     * @throws IllegalArgumentException if the policy is ECMP or unknown, or entropies is not a power of two in range
     */
    PathSelector(final int policy, final int entropies, final long[] cells) {
        if (policy < NicConfig.PATH_OBLIVIOUS || policy > NicConfig.PATH_MIXED) {
            throw new IllegalArgumentException("no path selector for policy " + policy);
        }
        if (entropies < 1 || entropies > NicConfig.MAX_PATH_ENTROPIES || Integer.bitCount(entropies) != 1) {
            throw new IllegalArgumentException("entropies must be a power of two in 1..16384, got " + entropies);
        }
        this.policy = policy;
        this.entropies = entropies;
        this.mask = entropies - 1;
        this.cells = cells;
        final boolean bitmap = policy == NicConfig.PATH_BITMAP || policy == NicConfig.PATH_MIXED;
        penalty = bitmap ? new byte[entropies] : null;
        repsEv = policy == NicConfig.PATH_REPS ? new int[REPS_CACHE_EVS] : null;
        repsFresh = policy == NicConfig.PATH_REPS ? new boolean[REPS_CACHE_EVS] : null;
        fifo = policy == NicConfig.PATH_MIXED ? new int[16] : null;
    }

    /**
     * Starts a flow: forgets the previous flow's state.
     *
     * @param qpPort the QP's own UDP source port, 0xC000..0xFFFF
     * @param seed   seed of the flow's random stream
     */
    void start(final int qpPort, final long seed) {
        basePort = qpPort;
        rngState = seed;
        rrIndex = 0;
        rrXor = random();
        if (penalty != null) {
            java.util.Arrays.fill(penalty, (byte) 0);
        }
        if (repsEv != null) {
            repsReset();
            repsFrozen = false;
            repsThawPs = 0;
            repsExplore = 0;
        }
        fifoHead = 0;
        fifoCount = 0;
    }

    /** @return the policy, {@link NicConfig#PATH_OBLIVIOUS} .. {@link NicConfig#PATH_MIXED} */
    int policy() {
        return policy;
    }

    /**
     * The UDP source port of EV index {@code i}.
     *
     * @param index 0 .. entropies-1
     * @return 0xC000 .. 0xFFFF
     */
    int port(final int index) {
        return PORT_BASE | ((basePort ^ index) & PORT_BITS);
    }

    /**
     * The EV index of a UDP source port this QP sent.
     *
     * @param port a UDP source port (an echoed one)
     * @return 0 .. entropies-1, or -1 if the port is not one of this QP's EVs
     */
    int index(final int port) {
        if ((port & ~PORT_BITS) != PORT_BASE) {
            return -1;
        }
        final int i = (port ^ basePort) & PORT_BITS;
        return i < entropies ? i : -1;
    }

    /**
     * The EV of the next data packet (counts {@code path_ev_round_robin}, {@code path_ev_random} or
     * {@code path_ev_recycled}).
     *
     * @return its UDP source port
     */
    int nextPort() {
        return port(switch (policy) {
            case NicConfig.PATH_OBLIVIOUS -> roundRobin();
            case NicConfig.PATH_BITMAP -> bitmap();
            case NicConfig.PATH_REPS -> reps();
            default -> mixed();
        });
    }

    /**
     * Feedback for an EV: an ACK (with or without ECN echo) or a NACK that echoed it.
     *
     * @param echoedPort the echoed UDP source port; a port that is not one of this QP's EVs is ignored
     * @param kind       {@link #GOOD}, {@link #ECN} or {@link #NACK}
     * @param nowPs      simulated time, ps
     */
    void onFeedback(final int echoedPort, final int kind, final long nowPs) {
        final int i = index(echoedPort);
        if (i >= 0) {
            feedback(i, kind, nowPs);
        }
    }

    /**
     * A retransmission timeout: a penalty of 15 on EV index 0 (uet-htsim's {@code UNKNOWN_EV}) for bitmap and
     * mixed, a freeze for REPS.
     *
     * @param nowPs simulated time, ps
     */
    void onTimeout(final long nowPs) {
        feedback(0, TIMEOUT, nowPs);
    }

    private void feedback(final int i, final int kind, final long nowPs) {
        switch (policy) {
            case NicConfig.PATH_BITMAP -> penalise(i, kind);
            case NicConfig.PATH_REPS -> repsFeedback(i, kind, nowPs);
            case NicConfig.PATH_MIXED -> {
                penalise(i, kind);
                if (kind == GOOD) {
                    fifoPush(i);
                }
            }
            default -> {
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // oblivious and bitmap

    private int roundRobin() {
        cells[NicCounters.PATH_EV_ROUND_ROBIN]++;
        final int e = (rrIndex ^ rrXor) & mask;
        advance();
        return e;
    }

    private void advance() {
        if (++rrIndex == entropies) {
            rrIndex = 0;
            rrXor = random();
        }
    }

    private int bitmap() {
        cells[NicCounters.PATH_EV_ROUND_ROBIN]++;
        int e = (rrIndex ^ rrXor) & mask;
        boolean decayed = false;
        int met = 0;
        while (penalty[e] > 0) {
            if (!decayed) {
                penalty[e]--; // only the first penalised EV a call meets decays
                decayed = true;
            }
            if (++met > entropies) {
                break; // every EV penalised: send on this one
            }
            cells[NicCounters.PATH_EV_PENALISED_SKIPS]++;
            advance();
            e = (rrIndex ^ rrXor) & mask;
        }
        advance();
        return e;
    }

    private void penalise(final int i, final int kind) {
        final int add = kind == ECN ? PENALTY_ECN : kind == NACK ? PENALTY_NACK : kind == TIMEOUT ? PENALTY_MAX : 0;
        if (add > 0) {
            cells[NicCounters.PATH_EV_PENALTIES]++;
            penalty[i] = (byte) Math.min(PENALTY_MAX, penalty[i] + add);
        }
    }

    /** @return the EV index's penalty (tests) */
    int penalty(final int index) {
        return penalty == null ? 0 : penalty[index];
    }

    // ------------------------------------------------------------------------------------------
    // REPS

    private int reps() {
        if (repsExplore > 0) {
            repsExplore--;
            return randomEv();
        }
        if (repsFrozen) {
            if (repsCount == 0) {
                return randomEv();
            }
            cells[NicCounters.PATH_EV_RECYCLED]++;
            final int slot = repsFrozenNext;
            if (repsFresh[slot]) {
                repsFresh[slot] = false;
                repsFreshCount--;
            }
            repsFrozenNext = (repsFrozenNext + 1) % repsCount;
            return repsEv[slot];
        }
        if (repsFreshCount == 0) {
            return randomEv();
        }
        // the oldest fresh EV: the fresh ones are the last repsFreshCount slots written
        cells[NicCounters.PATH_EV_RECYCLED]++;
        final int slot = Math.floorMod(repsHead - repsFreshCount, REPS_CACHE_EVS);
        repsFresh[slot] = false;
        repsFreshCount--;
        return repsEv[slot];
    }

    private int randomEv() {
        cells[NicCounters.PATH_EV_RANDOM]++;
        return random();
    }

    private void repsFeedback(final int i, final int kind, final long nowPs) {
        if (kind == TIMEOUT && !repsFrozen && repsExplore == 0) {
            repsFrozen = true;
            repsThawPs = nowPs + REPS_FREEZE_PS;
            cells[NicCounters.PATH_REPS_FREEZES]++;
        }
        if (repsFrozen && nowPs > repsThawPs) {
            repsFrozen = false;
            repsReset();
            repsExplore = REPS_EXPLORE_PACKETS;
        }
        if (kind == GOOD) {
            if (!repsFresh[repsHead]) {
                repsFreshCount++;
            }
            repsEv[repsHead] = i;
            repsFresh[repsHead] = true;
            repsHead = (repsHead + 1) % REPS_CACHE_EVS;
            repsCount = Math.min(repsCount + 1, REPS_CACHE_EVS);
        }
    }

    private void repsReset() {
        java.util.Arrays.fill(repsFresh, false);
        repsHead = 0;
        repsCount = 0;
        repsFreshCount = 0;
        repsFrozenNext = 0;
    }

    /** @return whether REPS is frozen (tests) */
    boolean frozen() {
        return repsFrozen;
    }

    // ------------------------------------------------------------------------------------------
    // mixed

    private int mixed() {
        if (fifoCount == 0) {
            return bitmap();
        }
        cells[NicCounters.PATH_EV_RECYCLED]++;
        final int e = fifo[fifoHead];
        fifoHead = (fifoHead + 1) & (fifo.length - 1);
        fifoCount--;
        return e;
    }

    private void fifoPush(final int i) {
        if (fifoCount == fifo.length) {
            final int[] bigger = new int[fifo.length * 2]; // a new peak of EVs waiting
            for (int k = 0; k < fifoCount; k++) {
                bigger[k] = fifo[(fifoHead + k) & (fifo.length - 1)];
            }
            fifo = bigger;
            fifoHead = 0;
        }
        fifo[(fifoHead + fifoCount) & (fifo.length - 1)] = i;
        fifoCount++;
    }

    /** @return a uniform EV index from the QP's SplitMix64 stream */
    private int random() {
        rngState += GOLDEN_GAMMA;
        return (int) (RngStreams.mix(rngState) & mask);
    }
}
