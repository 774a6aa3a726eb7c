package dev.nicsim.sw;

import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;

/**
 * The PFC frame generator of a {@link SwitchAsic} (IEEE 802.1Qbb; xOFF/xON as in "Understanding
 * DCQCN"): per (ingress port, PG) whether the PG has paused its upstream, and the XOFF, refresh
 * and XON frames. The buffer stages ({@link SharedBufferMmu}, {@link VoqStage}) decide when a PG
 * crosses xoff or xon and call {@link #sendXoff} / {@link #sendXon}.
 *
 * <p>XOFF: {@link Packet#KIND_PFC}, class-enable bit of the PG, quanta {@code 0xFFFF}, 64 bytes,
 * sent to the upstream neighbour through this switch's egress port on the ingress link, ahead of
 * data ({@link EgressPort#sendControl}). While the PG stays in xoff the pause is refreshed every
 * half pause time ({@code 0xFFFF x 512} bit times at that link's rate / 2, at least 1 ps); at each
 * refresh the xon condition is re-checked ({@link SwitchAsic#xonCondition}; dynamic thresholds
 * move as other PGs drain). XON: the same frame with quanta 0. A PG whose ingress port is
 * unconnected cannot send PFC. Counters: {@code pfc_xoff_sent} (including refreshes),
 * {@code pfc_xon_sent}.
 *
 * <p>Allocation-free: frames come from the {@link PacketPool}. Thread-safety: not thread-safe;
 * simulation thread only.
 */
final class PfcController implements EventHandler {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;
    /** PFC pause quanta sent with an XOFF (the maximum, IEEE 802.1Qbb). */
    static final int XOFF_QUANTA = 0xFFFF;

    private final SwitchAsic owner;
    private final Simulator sim;
    private final PacketPool pool;
    private final SwitchPort[] ports;
    private final SwitchCounters stats;
    private final boolean[] xoffActive;      // [port * 8 + pg]
    private final int[] xoffGeneration;      // [port * 8 + pg]: stale refresh timers carry an older one
    private final long[] refreshIntervalPs;  // per port

    /**
     * @param owner the switch (asked for the xon condition at refreshes)
     * @param sim   simulator
     * @param pool  packet pool PFC frames come from
     * @param ports the switch's ports (shared; filled as ports connect)
     * @param stats the switch's counters ({@code pfc_xoff_sent}, {@code pfc_xon_sent}, total frames)
     */
    PfcController(final SwitchAsic owner, final Simulator sim, final PacketPool pool, final SwitchPort[] ports,
                  final SwitchCounters stats) {
        this.owner = owner;
        this.sim = sim;
        this.pool = pool;
        this.ports = ports;
        this.stats = stats;
        final int queues = ports.length * PRIORITIES;
        this.xoffActive = new boolean[queues];
        this.xoffGeneration = new int[queues];
        this.refreshIntervalPs = new long[ports.length];
    }

    /**
     * A port was connected: sets its refresh interval (half the pause time of an XOFF at its rate,
     * at least 1 ps). Set-up only.
     *
     * @param port           port number
     * @param rateBitsPerSec the link's rate, bits/s
     */
    void onPortConnected(final int port, final long rateBitsPerSec) {
        refreshIntervalPs[port] = Math.max(1, RoceFraming.pauseDurationPs(XOFF_QUANTA, rateBitsPerSec) / 2);
    }

    /**
     * @param pgIdx {@code ingress port x 8 + pg}
     * @return whether the PG has paused its upstream (XOFF sent, XON not yet)
     */
    boolean xoffActive(final int pgIdx) {
        return xoffActive[pgIdx];
    }

    /**
     * Pauses the upstream of a PG: sends XOFF and starts the refresh timer (nothing if the
     * ingress port is unconnected).
     *
     * @param inPort ingress port
     * @param pg     priority group
     */
    void sendXoff(final int inPort, final int pg) {
        final SwitchPort up = ports[inPort];
        if (up == null) {
            return;
        }
        final int pgIdx = inPort * PRIORITIES + pg;
        xoffActive[pgIdx] = true;
        final int gen = ++xoffGeneration[pgIdx];
        sendPfc(up, pg, XOFF_QUANTA);
        stats.onXoffSent(pgIdx);
        sim.scheduleIn(refreshIntervalPs[inPort], this, 0, ((long) gen << 32) | pgIdx, null);
    }

    /**
     * Resumes the upstream of a paused PG: sends XON and cancels the refresh timer.
     *
     * @param inPort ingress port (connected)
     * @param pg     priority group
     */
    void sendXon(final int inPort, final int pg) {
        final int pgIdx = inPort * PRIORITIES + pg;
        xoffActive[pgIdx] = false;
        xoffGeneration[pgIdx]++;
        sendPfc(ports[inPort], pg, 0);
        stats.onXonSent(pgIdx);
    }

    private void sendPfc(final SwitchPort up, final int pg, final int quanta) {
        final Packet f = pool.acquire();
        f.kind = Packet.KIND_PFC;
        f.pfcClassEnable = 1 << pg;
        f.setPfcQuanta(pg, quanta);
        f.frameBytes = RoceFraming.PFC_FRAME_BYTES;
        f.priority = pg;
        stats.totalPauseFramesSent++;
        up.sendControl(f);
    }

    /** Pause refresh timer: arg = (generation << 32) | pgIdx; stale generations are ignored. */
    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        final int pgIdx = (int) arg;
        final int gen = (int) (arg >>> 32);
        if (!xoffActive[pgIdx] || xoffGeneration[pgIdx] != gen) {
            return;
        }
        final int port = pgIdx / PRIORITIES;
        final int pg = pgIdx % PRIORITIES;
        if (owner.xonCondition(pgIdx, pg)) {
            sendXon(port, pg);
            return;
        }
        final int next = ++xoffGeneration[pgIdx];
        sendPfc(ports[port], pg, XOFF_QUANTA);
        stats.onXoffSent(pgIdx);
        sim.scheduleIn(refreshIntervalPs[port], this, 0, ((long) next << 32) | pgIdx, null);
    }
}
