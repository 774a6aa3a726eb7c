package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.CycleModel;

import java.util.function.Consumer;

/**
 * What a loaded firmware ELF and its runs share, as a reaction-point algorithm
 * ({@link FirmwareProvider}) or a notification-point program ({@link FirmwareNotificationPoint}):
 * the image, the machine model its harts run, where its output lines go, the services it used that
 * nicsim does not model, and the record of calls abandoned on a trap or at the instruction budget.
 *
 * <p>Thread-safety: shared by the NICs of one run; the fault record ({@link FirmwareFaultLog}) and
 * the service log are updated under their own locks, since a partitioned run drives its NICs from
 * several threads. {@link #log(Consumer)} is set before the run.
 */
public abstract class FirmwareProgram {
    /** The checked firmware image. */
    final FirmwareImage image;
    /** The cycle model of the harts that run it. */
    final CycleModel model;
    /** Calls abandoned on a trap or at the instruction budget, over every NIC. */
    final FirmwareFaultLog faultLog;
    /** Unmodelled services the program used, over every NIC ({@link #services()}). */
    final FirmwareServiceLog services;
    /** Receives the firmware's output lines. */
    Consumer<String> log;

    /**
     * @param image           the checked image
     * @param model           the harts' cycle model
     * @param maxInstructions instruction budget of one call (recorded with each budget overrun)
     * @param logPrefix       prefix of the output lines on standard error until {@link #log(Consumer)} is set
     */
    FirmwareProgram(final FirmwareImage image, final CycleModel model, final long maxInstructions, final String logPrefix) {
        this.image = image;
        this.model = model;
        this.faultLog = new FirmwareFaultLog(maxInstructions);
        this.services = new FirmwareServiceLog(String.valueOf(image.path().getFileName()));
        this.log = line -> System.err.println(logPrefix + line);
    }

    /**
     * Sets where the program's output lines go (default: standard error, prefixed {@code firmware: },
     * or {@code firmware np: } for a notification-point program).
     *
     * @param sink receives one line at a time
     */
    public void log(final Consumer<String> sink) {
        this.log = sink;
    }

    /**
     * The services this program used that nicsim does not model, over every NIC of the run so far
     * ({@link FirmwareServiceLog}); its {@link FirmwareServiceLog#summaryLine()} belongs in the run summary.
     *
     * @return the log, shared by the NICs of the run
     */
    public FirmwareServiceLog services() {
        return services;
    }

    /** @return the image */
    public FirmwareImage image() {
        return image;
    }

    /** @return the harts' cycle model (the DPA's machine model) */
    public CycleModel model() {
        return model;
    }

    /**
     * @return calls abandoned on a trap, over every NIC so far (the handler calls; for a
     *         notification-point program its port-info calls too)
     */
    public long faults() {
        return faultLog.faults();
    }

    /** @return calls abandoned at the instruction budget, over every NIC so far */
    public long budgetExceeded() {
        return faultLog.budgetExceeded();
    }

    /**
     * The earliest abandoned call by (simulated time, host index), ties on both kept in the NIC's own
     * order ({@link FirmwareFaultLog}): cause, pc, symbol, the call (the event type of an algorithm's
     * handler), then, when the NIC is known (in a run), {@code " on host<i> at <t> us"}. The same on
     * any number of threads.
     *
     * @return the text; null when none
     */
    public String firstFault() {
        return faultLog.firstFault();
    }
}
