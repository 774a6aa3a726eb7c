package dev.nicsim.nic;

import dev.nicsim.microcode.DirectCcProcessor;
import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * Two NICs on one 100 Gb/s link with 1 us propagation each way, a {@link Tap} on each direction
 * (a->b and b->a), NIC a running {@link FixedAlgorithm} through a {@link DirectCcProcessor}.
 *
 * <p>Numbers every test uses (RoceFraming): wire bytes = frame + 20 (preamble + IFG); at 100 Gb/s
 * one wire byte is 80 ps. WRITE FIRST with RETH and 1024 B payload: 66 + 16 + 1024 = 1106 B frame,
 * 1126 wire B = 90,080 ps. WRITE MIDDLE/LAST 1024 B: 1090 B, 88,800 ps. ACK: 66 + 4 = 70 B,
 * 7,200 ps. CNP: 66 + 16 = 82 B, 8,160 ps.
 */
final class Bench {
    static final long RATE = 100_000_000_000L;
    static final long PROP_PS = 1_000_000;
    static final int QPN_A = 0x11;
    static final int QPN_B = 0x22;

    final Simulator sim = new Simulator();
    final PacketPool pool = new PacketPool();
    final CounterRegistry counters = new CounterRegistry();
    final FixedAlgorithm alg;
    final RoceNic a;
    final RoceNic b;
    final Tap ab;
    final Tap ba;
    final List<long[]> completions = new ArrayList<>();

    Bench(final NicConfig configA, final NicConfig configB, final FixedAlgorithm alg) {
        this.alg = alg;
        a = new RoceNic(sim, "a", 0, configA, counters, pool);
        b = new RoceNic(sim, "b", 1, configB, counters, pool);
        ab = new Tap("a->b", sim, pool);
        ba = new Tap("b->a", sim, pool);
        ab.target = b;
        ba.target = a;
        a.connect(RATE, PROP_PS, ab, 0);
        b.connect(RATE, PROP_PS, ba, 0);
        if (alg != null) {
            a.setCcProcessor(new DirectCcProcessor(alg, 0, a));
        }
    }

    Bench(final FixedAlgorithm alg) {
        this(new NicConfig(), new NicConfig(), alg);
    }

    Bench() {
        this(new FixedAlgorithm());
    }

    void start(final int flowId, final MessageOp op, final long sizeBytes) {
        start(flowId, op, sizeBytes, 0);
    }

    void start(final int flowId, final MessageOp op, final long sizeBytes, final int initialPsn) {
        a.startFlow(flowId, QPN_A, b, QPN_B, op, sizeBytes, 2_000, initialPsn,
            (id, ps) -> completions.add(new long[] {id, ps}));
    }

    void run() {
        sim.runUntil(Long.MAX_VALUE);
    }

    long completionPs() {
        if (completions.size() != 1) {
            throw new AssertionError("expected one completion, got " + completions.size());
        }
        return completions.get(0)[1];
    }

    long counter(final String nic, final String name) {
        return counters.value(nic, name);
    }

    List<Tap.Seen> dataAtB() {
        return ab.ofKind(Packet.KIND_DATA);
    }

    List<Tap.Seen> acksAtA() {
        return ba.ofKind(Packet.KIND_ACK);
    }
}
