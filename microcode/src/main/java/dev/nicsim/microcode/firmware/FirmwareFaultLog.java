package dev.nicsim.microcode.firmware;

import java.util.Locale;

/**
 * The fault record of one firmware program over every NIC of a run, shared by the reaction-point
 * provider ({@link FirmwareProvider}) and the notification-point program
 * ({@link FirmwareNotificationPoint}): how many calls were abandoned on a trap ({@link #faults()})
 * or at the instruction budget ({@link #budgetExceeded()}), and the text of the earliest one
 * ({@link #firstFault()}).
 *
 * <p><b>Which fault is first.</b> The earliest by (simulated time, host index): the lower time
 * wins; on equal times the lower host index; on equal time and host the one recorded first (one
 * thread drives a NIC, so that order is the NIC's own and deterministic). A partitioned run
 * ({@code nicsim run --partitions N}) records faults of NICs of different partitions from
 * different threads in any order within a window; this rule makes the choice depend on the
 * faults, never on that order, so the first fault is the same on any number of threads. A caller
 * that knows neither clock nor NIC (replay, unit tests: {@link #NO_TIME}, {@link #NO_HOST}) drives
 * one thread, so all its faults share one key and the first recorded is kept, as before.
 *
 * <p>The text is the cause, the pc and its symbol, what was called, then, when known,
 * {@code " on host<i> at <t> us"} (the host index as {@code counters.csv} names the NIC, the
 * simulated time in us with six decimals, i.e. exact ps). The log composes it only for a fault
 * that becomes the earliest (the caller hands in the cause's pieces).
 *
 * <p>Thread-safety: every method takes this object's lock; the counts are exact over all threads.
 */
final class FirmwareFaultLog {
    /** Host index of a fault whose NIC is not known (replay, stand-alone instances); sorts before every host. */
    static final int NO_HOST = -1;
    /** Simulated time of a fault when no clock is known, ps; sorts before every time. */
    static final long NO_TIME = -1;

    private final long maxInstructions;
    private long faults;
    private long budgetExceeded;
    private long firstTimePs;
    private int firstHost;
    private String firstFault;

    /**
     * An empty log.
     *
     * @param maxInstructions the instruction budget of one call, as the budget text and the summary state it
     */
    FirmwareFaultLog(final long maxInstructions) {
        this.maxInstructions = maxInstructions;
    }

    /**
     * Counts a call abandoned on a trap and keeps it if it is the earliest so far.
     *
     * @param timePs simulated time of the NIC when the call was abandoned, ps; {@link #NO_TIME} if unknown
     * @param host   the NIC's host index, 0 or more; {@link #NO_HOST} if unknown
     * @param cause  the trap: cause, pc, symbol (and address), as {@code FirmwareNic.faultLine} gives it
     * @param what   what was called, e.g. {@code "CNP event"}
     */
    synchronized void trap(final long timePs, final int host, final String cause, final String what) {
        faults++;
        if (earliest(timePs, host)) {
            keep(timePs, host, cause + " (" + what + ")");
        }
    }

    /**
     * Counts a call abandoned at the instruction budget and keeps it if it is the earliest so far.
     *
     * @param timePs simulated time of the NIC when the call was abandoned, ps; {@link #NO_TIME} if unknown
     * @param host   the NIC's host index, 0 or more; {@link #NO_HOST} if unknown
     * @param pc     the pc the hart stopped at
     * @param symbol the pc as symbol+offset ({@code FirmwareImage.describe})
     * @param what   what was called, e.g. {@code "CNP event"}
     */
    synchronized void budget(final long timePs, final int host, final long pc, final String symbol, final String what) {
        budgetExceeded++;
        if (earliest(timePs, host)) {
            keep(timePs, host, String.format(Locale.ROOT, "instruction budget of %d exceeded at pc 0x%x (%s) (%s)",
                maxInstructions, pc, symbol, what));
        }
    }

    /** @return whether a fault at (time, host) comes strictly before the one kept (true when none is kept) */
    private boolean earliest(final long timePs, final int host) {
        return firstFault == null || timePs < firstTimePs || timePs == firstTimePs && host < firstHost;
    }

    private void keep(final long timePs, final int host, final String text) {
        firstTimePs = timePs;
        firstHost = host;
        final StringBuilder b = new StringBuilder(text);
        if (host != NO_HOST) {
            b.append(" on host").append(host);
        }
        if (timePs != NO_TIME) {
            b.append(" at ").append(timePs / 1_000_000).append('.');
            final String frac = Long.toString(timePs % 1_000_000);
            for (int i = frac.length(); i < 6; i++) {
                b.append('0');
            }
            b.append(frac).append(" us");
        }
        firstFault = b.toString();
    }

    /** @return calls abandoned on a trap so far */
    synchronized long faults() {
        return faults;
    }

    /** @return calls abandoned at the instruction budget so far */
    synchronized long budgetExceeded() {
        return budgetExceeded;
    }

    /** @return the earliest abandoned call's text (see the class comment); null when none */
    synchronized String firstFault() {
        return firstFault;
    }

    /** @return the earliest abandoned call's simulated time, ps ({@link #NO_TIME} if unknown); undefined when none */
    synchronized long firstTimePs() {
        return firstTimePs;
    }

    /** @return the earliest abandoned call's host index ({@link #NO_HOST} if unknown); undefined when none */
    synchronized int firstHost() {
        return firstHost;
    }

    /**
     * The fault part of a summary line: {@code "F faults, B over the budget of M instructions"}, then
     * {@code "; first: TEXT"} when a call was abandoned.
     *
     * @return the text
     */
    synchronized String summary() {
        final String counts = String.format(Locale.ROOT, "%d faults, %d over the budget of %d instructions", faults,
            budgetExceeded, maxInstructions);
        return firstFault == null ? counts : counts + "; first: " + firstFault;
    }
}
