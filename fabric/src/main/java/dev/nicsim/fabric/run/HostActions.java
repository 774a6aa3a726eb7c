package dev.nicsim.fabric.run;

import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.sim.Simulator;

/**
 * What the host side does to the NICs during a run: delivers the scenario's mailbox messages to the
 * firmware ({@code firmware.mailbox}, answered into {@link MailboxLog}) and plays its link events
 * ({@code link_events}: the host link stops or resumes, the firmware learns the port's state), each at
 * its time; optionally records every such call ({@link HostCallRecorder}) before the firmware runs it.
 *
 * <p>Thread-safety: not thread-safe; the run's thread (the global simulator's events).
 */
final class HostActions {
    private final Scenario scenario;
    private final Simulator sim;
    private final Fabric fabric;
    /** What the firmware answered the scenario's mailbox messages ({@code mailbox.csv}). */
    private final MailboxLog mailboxLog = new MailboxLog();
    /** Mailbox messages delivered so far (they run in list order, the list being in time order). */
    private int mailboxDelivered;
    /** Where the host's calls into firmware are recorded, or null. */
    private HostCallRecorder recorder;

    /**
     * @param scenario the scenario (its mailbox messages and link events)
     * @param sim      the simulator whose clock the calls read (the global one in a partitioned run)
     * @param fabric   the run's devices
     */
    HostActions(final Scenario scenario, final Simulator sim, final Fabric fabric) {
        this.scenario = scenario;
        this.sim = sim;
        this.fabric = fabric;
    }

    /** @param recorder where host calls are recorded from now on, or null to record none */
    void record(final HostCallRecorder recorder) {
        this.recorder = recorder;
    }

    /** @return the mailbox messages and replies so far */
    MailboxLog mailboxLog() {
        return mailboxLog;
    }

    /**
     * Delivers mailbox message {@code i} to its NIC or to every NIC ({@code doca_pcc_mailbox_send} played by the
     * host side): each NIC's firmware runs {@code doca_pcc_dev_user_mailbox_handle} now, and the reply goes to
     * {@code mailbox.csv}.
     *
     * @param i the message's index in the scenario's list
     */
    void deliverMailbox(final int i) {
        final Scenario.MailboxMessage m = scenario.mailbox().get(i);
        final byte[] request = m.request();
        final int nowNs = (int) (sim.nowPs() / Units.PS_PER_NS);
        final long rate = scenario.topology().hostLink().rateBitsPerSec();
        for (int h = 0; h < fabric.nics().length; h++) {
            if (m.nic() == Scenario.ALL_NICS || m.nic() == h) {
                final FirmwareAlgorithm fw = fabric.firmware()[h];
                if (recorder != null) {
                    recorder.mailbox(h, sim.nowPs(), i, request, m.maxResponseBytes(), rate);
                }
                mailboxLog.delivered(sim.nowPs(), h, i, m, fw.hostMailbox(request, m.maxResponseBytes(), nowNs, rate));
            }
        }
        mailboxDelivered = i + 1;
    }

    /**
     * Marks every message whose time the run did not reach as not delivered, at the end of the run.
     */
    void finish() {
        for (int i = mailboxDelivered; i < scenario.mailbox().size(); i++) {
            final Scenario.MailboxMessage m = scenario.mailbox().get(i);
            for (int h = 0; h < fabric.nics().length; h++) {
                if (m.nic() == Scenario.ALL_NICS || m.nic() == h) {
                    mailboxLog.notDelivered(m.atPs(), h, i, m);
                }
            }
        }
        mailboxDelivered = scenario.mailbox().size();
    }

    /**
     * Link event {@code i}: both directions of the host's link stop (or resume) starting frames, and the
     * firmware on the host's NIC learns the port's new state ({@code doca_pcc_dev_user_port_info_changed}).
     *
     * @param i the event's index in the scenario's list
     */
    void linkEvent(final int i) {
        final Scenario.LinkEvent ev = scenario.linkEvents().get(i);
        final int h = ev.host();
        final TopologyGraph graph = fabric.graph();
        fabric.nics()[h].port().setLinkUp(ev.up());
        for (final TopologyGraph.Edge e : graph.edges()) {
            if (e.a() == h) {
                fabric.switches()[e.b() - graph.hosts()].egressPort(e.portB()).setLinkUp(ev.up());
            } else if (e.b() == h) {
                fabric.switches()[e.a() - graph.hosts()].egressPort(e.portA()).setLinkUp(ev.up());
            }
        }
        final FirmwareAlgorithm fw = fabric.firmware()[h];
        if (fw != null) {
            final long rate = scenario.topology().hostLink().rateBitsPerSec();
            if (recorder != null) {
                recorder.portState(h, sim.nowPs(), ev.up(), rate);
            }
            fw.portStateChanged(ev.up(), (int) (sim.nowPs() / Units.PS_PER_NS), rate);
        }
    }
}
