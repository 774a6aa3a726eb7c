package dev.nicsim.scenario;

import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.microcode.firmware.FirmwareNotificationPoint;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.riscv.CycleModel;

import java.nio.file.Path;
import java.util.HexFormat;

/**
 * The programs a run executes, loaded from a {@link Scenario}'s plain data where the run is built:
 * the congestion-control provider ({@code algorithm.name}, or the firmware ELF of
 * {@code algorithm.firmware} on its machine model with the emulator's instruction budget) and the
 * notification-point program ({@code firmware.np}, with its host mailbox message). Each run loads
 * its own, so a firmware's fault and budget counters and its profile are that run's.
 *
 * @param provider the algorithm's provider
 * @param np       the notification-point program, or null for the NICs' hardware RTT responders
 */
public record ScenarioPrograms(PccAlgorithmProvider provider, FirmwareNotificationPoint np) {
    /**
     * Loads the programs of a scenario. {@link ScenarioLoader} has loaded them once already to
     * validate the scenario, so a failure here means a file changed since.
     *
     * @param s the scenario
     * @return the programs
     * @throws ScenarioException one line naming the ELF and why it no longer loads
     */
    public static ScenarioPrograms load(final Scenario s) {
        final long budget = s.nic().emulator().maxInstructionsPerEvent();
        final PccAlgorithmProvider provider;
        if (s.algorithm().firmware() == null) {
            try {
                provider = PccAlgorithms.byName(s.algorithm().name());
            } catch (final IllegalArgumentException e) {
                throw new ScenarioException("algorithm.name: " + e.getMessage());
            }
        } else {
            provider = firmware(s.algorithm().firmware(), budget, s.algorithm().firmwareModel());
        }
        FirmwareNotificationPoint np = null;
        if (s.npFirmware() != null) {
            final CycleModel model = s.algorithm().firmwareModel() != null ? s.algorithm().firmwareModel() : CycleModel.bf3Dpa();
            np = notificationPoint(s.npFirmware().elf(), budget, model);
            if (s.npFirmware().mailboxHex() != null) {
                np.hostMailbox(HexFormat.of().parseHex(s.npFirmware().mailboxHex()));
            }
        }
        return new ScenarioPrograms(provider, np);
    }

    /**
     * Loads a firmware ELF as an algorithm provider.
     *
     * @param elf    the ELF
     * @param budget instructions a handler may retire per event
     * @param model  the cores' machine model
     * @return the provider
     * @throws ScenarioException {@code algorithm.firmware: }, the ELF and why it does not load
     */
    static FirmwareProvider firmware(final Path elf, final long budget, final CycleModel model) {
        try {
            return FirmwareProvider.load(elf, budget, model);
        } catch (final FirmwareException e) {
            throw new ScenarioException("algorithm.firmware: " + e.getMessage());
        }
    }

    /**
     * Loads a notification-point program.
     *
     * @param elf    the ELF
     * @param budget instructions a handler may retire per probe
     * @param model  the cores' machine model
     * @return the program
     * @throws ScenarioException {@code firmware.np: }, the ELF and why it does not load
     */
    static FirmwareNotificationPoint notificationPoint(final Path elf, final long budget, final CycleModel model) {
        try {
            return FirmwareNotificationPoint.load(elf, budget, model);
        } catch (final FirmwareException e) {
            throw new ScenarioException("firmware.np: " + e.getMessage());
        }
    }
}
