package dev.nicsim.nic;

import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test device on one direction of a link: records every frame at its arrival time and passes it
 * on to the target at once (no delay), or drops or CE-marks it by rule.
 */
final class Tap implements NetDevice {
    static final int FORWARD = 0;
    static final int DROP = 1;
    static final int MARK_CE = 2;

    /** Decides what happens to a frame; {@code occurrence} counts frames of the same kind and PSN, from 1. */
    interface Rule {
        int decide(Packet p, int occurrence);
    }

    /** A frame as seen on arrival (fields before any marking). */
    record Seen(long timePs, int kind, int opcode, int psn, int frameBytes, int payloadBytes, int ecn, boolean ece,
                int ackedPackets, boolean ackReq, int syndrome, int srcQpn, int dstQpn, int dscp, int priority,
                boolean becn, int msn, int txTimestampNs, int udpSrcPort, int action) {
    }

    private final String name;
    private final Simulator sim;
    private final PacketPool pool;
    private final Map<Long, Integer> occurrences = new HashMap<>();
    final List<Seen> seen = new ArrayList<>();
    NetDevice target;
    Rule rule = (p, n) -> FORWARD;

    Tap(final String name, final Simulator sim, final PacketPool pool) {
        this.name = name;
        this.sim = sim;
        this.pool = pool;
    }

    @Override
    public void receive(final Packet p, final int inPort) {
        final int n = occurrences.merge(((long) p.kind << 32) | p.psn, 1, Integer::sum);
        final int action = rule.decide(p, n);
        seen.add(new Seen(sim.nowPs(), p.kind, p.opcode, p.psn, p.frameBytes, p.payloadBytes, p.ecn, p.ece,
            p.ackedPackets, p.ackReq, p.aethSyndrome, p.srcQpn, p.dstQpn, p.dscp, p.priority, p.becn, p.msn,
            p.txTimestampNs, p.udpSrcPort, action));
        if (action == DROP) {
            pool.release(p);
            return;
        }
        if (action == MARK_CE) {
            p.ecn = Packet.ECN_CE;
        }
        target.receive(p, 0);
    }

    List<Seen> ofKind(final int kind) {
        return seen.stream().filter(s -> s.kind() == kind).toList();
    }

    @Override
    public String name() {
        return name;
    }
}
