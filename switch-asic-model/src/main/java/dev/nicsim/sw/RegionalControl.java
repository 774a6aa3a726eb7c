package dev.nicsim.sw;

import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.Simulator;

/**
 * Window-based regional congestion control (RCC, the RCM paper §3.4) of one {@link SwitchAsic}:
 * one {@link RccWindow} per watched output queue ({@code W = rate x T / 8}, built when the port
 * connects; none with RCC off), fed with congestion events:
 * <ul>
 * <li>a sample finding the output congested, with its quantised {@code F_b}
 *     ({@link #onOutputSample});</li>
 * <li>a CN received on its port, with the CN's {@code F_br} ({@link #onRemoteCongestion}).</li>
 * </ul>
 * The window quits when the output is no longer congested (a sample with {@code F_b <= 0}, or the
 * output and its VOQs drained) and holds no valid CN; quitting releases the queue's latched harmful
 * set ({@link FlowRecognition#release}). The input-output-queued switch asks {@link #gate} before
 * moving a VOQ's head packet into the output queue: a harmful packet past {@code W_c} stays in its
 * VOQ (the output serves the other inputs), and a timer re-runs the output scheduler when the
 * window's period ends.
 *
 * <p>Counter: {@code rcm_held_bytes} (bytes of packets RCC held back at least once on their way to
 * the port). Allocation-free after port connection. Thread-safety: not thread-safe; simulation
 * thread only.
 */
final class RegionalControl implements EventHandler {
    private static final int PRIORITIES = SwitchConfig.PRIORITIES;

    private final SwitchAsic owner;
    private final Simulator sim;
    private final SwitchPort[] ports;
    private final boolean enabled;
    private final long windowPeriodPs;
    private final double gd;
    private final int fbMaxQuantised;
    private final boolean compound;
    private final RegionDetection crd;
    private final FlowRecognition recognition;
    private final RccWindow[] windows;
    private final boolean[] timerPending;
    /** The switch's RCM counters, {@code [port x RCM_ROW + RCM_*]} ({@link RegionalCongestion}). */
    private final long[] rcmStats;

    /**
     * @param owner       the switch (its output scheduler runs at window ends)
     * @param sim         simulator
     * @param ports       the switch's ports (shared; filled as ports connect)
     * @param c           validated RCM configuration
     * @param crd         region detection
     * @param recognition flow recognition
     * @param rcmStats    the switch's RCM counters ({@code rcm_held_bytes} at {@code [port x RCM_ROW + RCM_HELD_BYTES]})
     */
    RegionalControl(final SwitchAsic owner, final Simulator sim, final SwitchPort[] ports, final RcmConfig c,
                    final RegionDetection crd, final FlowRecognition recognition, final long[] rcmStats) {
        this.owner = owner;
        this.sim = sim;
        this.ports = ports;
        this.enabled = c.regionalControl;
        this.windowPeriodPs = c.windowPeriodPs;
        this.gd = c.gd;
        this.fbMaxQuantised = c.fbMaxQuantised();
        this.compound = c.compoundWindowDecrease;
        this.crd = crd;
        this.recognition = recognition;
        final int queues = ports.length * PRIORITIES;
        this.windows = new RccWindow[queues];
        this.timerPending = new boolean[queues];
        this.rcmStats = rcmStats;
    }

    /**
     * A port was connected: builds the RCC windows of its watched priorities. Set-up only.
     *
     * @param port           port number
     * @param rateBitsPerSec the port's link rate, bits/s
     */
    void onPortConnected(final int port, final long rateBitsPerSec) {
        if (enabled) {
            final long wBytes = CongestionMath.windowBytes(rateBitsPerSec, windowPeriodPs);
            for (int g = 0; g < PRIORITIES; g++) {
                if (crd.watched(g)) {
                    windows[port * PRIORITIES + g] = new RccWindow(wBytes, windowPeriodPs, gd, fbMaxQuantised, compound);
                }
            }
        }
    }

    /**
     * A CN was stored for queue {@code q}: a congestion event with its degree.
     *
     * @param q     queue index
     * @param fbr   the CN's {@code F_br}, quantised
     * @param nowPs now
     */
    void onRemoteCongestion(final int q, final int fbr, final long nowPs) {
        if (enabled && windows[q] != null) {
            windows[q].onCongestion(fbr, nowPs);
        }
    }

    /**
     * A packet entered output queue {@code q}: counts it in the window (and, if RCC held it back
     * before, in {@code rcm_held_bytes}).
     *
     * @param q       queue index
     * @param out     output port
     * @param bytes   frame bytes
     * @param harmful whether it passed as harmful ({@link RegionalCongestion#GATE_PASS_HARMFUL})
     * @param wasHeld whether RCC held it back before
     * @param nowPs   now
     */
    void onPassed(final int q, final int out, final int bytes, final boolean harmful, final boolean wasHeld,
                  final long nowPs) {
        final RccWindow win = windows[q];
        if (win != null) {
            win.onPassed(bytes, harmful, nowPs);
            if (wasHeld) {
                rcmStats[out * RegionalCongestion.RCM_ROW + RegionalCongestion.RCM_HELD_BYTES] += bytes;
            }
        }
    }

    /**
     * The output congestion point of queue {@code q} took a sample: a congested sample is a
     * congestion event, a non-congested one ends RCC unless a valid CN is held.
     *
     * @param q     queue index
     * @param nowPs now
     */
    void onOutputSample(final int q, final long nowPs) {
        final RccWindow win = windows[q];
        if (win == null) {
            return;
        }
        final CongestionDetector output = crd.output();
        if (output.congested(q)) {
            win.onCongestion(output.fbQuantised(q), nowPs);
        } else if (!crd.remoteValid(q, nowPs)) {
            quit(q, win);
        }
    }

    /**
     * Output queue {@code q} (and its VOQs) drained: RCC quits unless a valid CN holds the port.
     *
     * @param q     queue index
     * @param nowPs now
     */
    void onOutputDrained(final int q, final long nowPs) {
        final RccWindow win = windows[q];
        if (win != null && !crd.remoteValid(q, nowPs)) {
            quit(q, win);
        }
    }

    /** RCC of queue {@code q} quits: the window goes idle and the latched harmful set is released. */
    private void quit(final int q, final RccWindow win) {
        win.quit();
        recognition.release(q);
    }

    /**
     * The output scheduler asks whether a VOQ's head packet may enter the output queue now. Quits
     * the window first if the output's congestion has cleared; latches the harmful set at a root
     * point whose window controls.
     *
     * @param out      output port
     * @param priority priority
     * @param head     the packet
     * @return {@link RegionalCongestion#GATE_HOLD}, {@link RegionalCongestion#GATE_PASS} or
     *         {@link RegionalCongestion#GATE_PASS_HARMFUL}
     */
    int gate(final int out, final int priority, final Packet head) {
        final int q = out * PRIORITIES + priority;
        final RccWindow win = windows[q];
        if (win == null || win.state() == RccWindow.IDLE) {
            return RegionalCongestion.GATE_PASS;
        }
        final long now = sim.nowPs();
        if (!crd.output().congested(q) && !crd.remoteValid(q, now)) {
            quit(q, win);
            return RegionalCongestion.GATE_PASS;
        }
        if (recognition.latchPending(q) && !crd.remoteValid(q, now) && win.controlling(now)) {
            recognition.latch(q);
        }
        if (!recognition.isHarmful(q, SwitchAsic.flowKey(head), now)) {
            return RegionalCongestion.GATE_PASS;
        }
        if (win.allowsHarmful(now)) {
            return RegionalCongestion.GATE_PASS_HARMFUL;
        }
        if (!timerPending[q]) {
            timerPending[q] = true;
            final long at = Math.max(now, win.windowEndPs());
            sim.schedule(at, this, 0, q, null);
        }
        return RegionalCongestion.GATE_HOLD;
    }

    /** Window timer: the period of a window holding harmful packets ended; run the output scheduler again. */
    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        final int q = (int) arg;
        timerPending[q] = false;
        final int out = q / PRIORITIES;
        owner.transferToOutput(out, q % PRIORITIES);
        ports[out].kick();
    }

    /**
     * @param out      output port
     * @param priority priority
     * @return the RCC window of the output queue, or null (RCC off, priority not watched, port unconnected)
     */
    RccWindow window(final int out, final int priority) {
        return windows[out * PRIORITIES + priority];
    }
}
