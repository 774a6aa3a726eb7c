package dev.nicsim.fabric.run;

import dev.nicsim.scenario.ScenarioPrograms;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.microcode.firmware.FirmwareServiceLog;
import dev.nicsim.scenario.Scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * The run summary's {@code firmware services} lines: what the scenario's reaction-point firmware
 * ({@code algorithm.firmware}) and notification-point program ({@code firmware.np}) used that nicsim
 * does not model, with counts and the earliest use ({@link FirmwareServiceLog#summaryLine()}). None
 * when the programs used nothing of the kind (or the algorithm is Java), so such runs' summaries are
 * unchanged.
 *
 * <p>Thread-safety: stateless; call after the run.
 */
public final class FirmwareServices {
    private FirmwareServices() {
    }

    /**
     * The lines of a finished run.
     *
     * @param programs the programs that ran
     * @return zero, one or two lines: the reaction point's, then the notification point's
     */
    public static List<String> lines(final ScenarioPrograms programs) {
        final List<String> out = new ArrayList<>(2);
        if (programs.provider() instanceof FirmwareProvider fp && fp.services().summaryLine() != null) {
            out.add(fp.services().summaryLine());
        }
        if (programs.np() != null && programs.np().services().summaryLine() != null) {
            out.add(programs.np().services().summaryLine());
        }
        return out;
    }
}
