package dev.nicsim.microcode.emulator;

import org.agrona.concurrent.Agent;

/**
 * Agrona agent that runs a group of emulated cores on one thread in free-running mode: each duty
 * cycle gives every core of the group one {@link EmulatorCore#doWorkFree()}.
 *
 * <p>Thread-safety: driven by one {@link org.agrona.concurrent.AgentRunner} thread.
 */
final class CoreGroupAgent implements Agent {
    private final EmulatorCore[] cores;
    private final String roleName;

    /**
     * @param cores the cores of the group, at least one
     */
    CoreGroupAgent(final EmulatorCore[] cores) {
        this.cores = cores;
        this.roleName = "unic-cores-" + cores[0].index + "-" + cores[cores.length - 1].index;
    }

    /** @return work done: events drained plus events handled over the group */
    @Override
    public int doWork() {
        int work = 0;
        for (int i = 0; i < cores.length; i++) {
            work += cores[i].doWorkFree();
        }
        return work;
    }

    /** @return {@code unic-cores-<first>-<last>} */
    @Override
    public String roleName() {
        return roleName;
    }
}
