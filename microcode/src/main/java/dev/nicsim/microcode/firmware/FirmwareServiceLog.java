package dev.nicsim.microcode.firmware;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The DOCA services and ecalls a firmware program used that nicsim does not model, over every NIC
 * of a run: each one is said, never nothing. A use found at load (from the ELF's symbols) is
 * recorded once then; a use only visible when the firmware runs is recorded at each NIC's first
 * use and counted on every use. The first record of a service prints one warning on the notice
 * sink (standard error by default) naming the service, the ELF and where it was called; the run
 * summary then carries {@link #summaryLine()} with the counts and the earliest use.
 *
 * <h2>What is not modelled (firmware/ABI.md section 3, docs/firmware.md)</h2>
 * <ul>
 * <li>{@link #TRACE}, {@link #TRACE_FLUSH}: {@code doca_pcc_dev_trace_5} and {@code _trace_flush}
 *     return, but nicsim keeps no trace buffer: the records are dropped.</li>
 * <li>{@link #UNKNOWN_ECALL}: an {@code ecall} number the emulator does not know returns -38
 *     (ENOSYS) and does nothing else.</li>
 * <li>{@link #NIC_COUNTER_ID}: {@code doca_pcc_dev_nic_counters_sample} with a counter ID other than
 *     port 0's RX bytes (type 1) or TX bytes (type 2): the call faults (as DOCA's process crashes,
 *     fact sheet Addendum A.3) and the fault is counted as well.</li>
 * <li>{@link #NIC_COUNTERS_NO_NIC}: {@code doca_pcc_dev_nic_counters_sample} where no simulated NIC
 *     is behind the firmware (replay, {@code firmware profile}): the counters read 0.</li>
 * <li>{@link #SET_ALGO_PARAMS}: a program that defines its own {@code doca_pcc_dev_user_set_algo_params}
 *     while the scenario sets {@code algorithm.params}: nicsim writes the values into the parameter
 *     table itself and never calls the callback (found at load, from the symbol's binding).</li>
 * </ul>
 *
 * <p><b>Which use is first.</b> As {@link FirmwareFaultLog}: the earliest by (simulated time, host
 * index), so the summary line is the same on any number of partition threads. The warning is printed
 * at the first record in wall-clock order (in a partitioned run, which NIC it names may vary; the
 * summary line does not).
 *
 * <p>Thread-safety: every method takes this object's lock. A NIC counts its uses in its own array
 * ({@link #register}), written by the one thread driving it and summed here after the run.
 */
public final class FirmwareServiceLog {
    /** {@code doca_pcc_dev_trace_5}: records dropped. */
    public static final int TRACE = 0;
    /** {@code doca_pcc_dev_trace_flush}: nothing to flush. */
    public static final int TRACE_FLUSH = 1;
    /** An unknown {@code ecall} number: -38 returned. */
    public static final int UNKNOWN_ECALL = 2;
    /** {@code doca_pcc_dev_nic_counters_sample} with a counter ID nicsim does not model: the call faults. */
    public static final int NIC_COUNTER_ID = 3;
    /** {@code doca_pcc_dev_nic_counters_sample} without a simulated NIC: counters read 0. */
    public static final int NIC_COUNTERS_NO_NIC = 4;
    /** The program's own {@code doca_pcc_dev_user_set_algo_params}: not called. */
    public static final int SET_ALGO_PARAMS = 5;
    /** Number of services tracked. */
    public static final int SERVICES = 6;

    private static final String[] NAMES = {"doca_pcc_dev_trace_5", "doca_pcc_dev_trace_flush", "ecall",
        "doca_pcc_dev_nic_counters_sample", "doca_pcc_dev_nic_counters_sample", "doca_pcc_dev_user_set_algo_params"};
    private static final String[] EFFECTS = {
        "trace records are not modelled: dropped",
        "trace records are not modelled: nothing flushed",
        "not a nicsim ecall (firmware/ABI.md section 3): returned -38 (ENOSYS), did nothing",
        "counter ID not modelled (port 0's RX bytes, type 1, and TX bytes, type 2, are): the call faults, as DOCA's process crashes",
        "no simulated NIC behind the firmware here: the counters read 0",
        "not called: nicsim writes algorithm.params into the parameter table itself, so the program's checks and copy do not run",
    };

    private final String elf;
    private Consumer<String> notice = System.err::println;
    private final List<long[]> nicCounts = new ArrayList<>();
    private final long[] loadCounts = new long[SERVICES];
    private final String[] firstWhere = new String[SERVICES];
    private final long[] firstTimePs = new long[SERVICES];
    private final int[] firstHost = new int[SERVICES];

    /**
     * An empty log.
     *
     * @param elf the program's file name, as the lines name it
     */
    FirmwareServiceLog(final String elf) {
        this.elf = elf;
    }

    /**
     * Sets where the first-use warnings go (default: standard error).
     *
     * @param sink receives one line per service, at its first record
     */
    public synchronized void notices(final Consumer<String> sink) {
        this.notice = sink;
    }

    /**
     * A NIC's use counts, one slot per service, which the NIC increments on its own thread.
     *
     * @return a new array of {@link #SERVICES} zeros, summed by {@link #uses(int)}
     */
    synchronized long[] register() {
        final long[] counts = new long[SERVICES];
        nicCounts.add(counts);
        return counts;
    }

    /**
     * Records a use found at load (counted once, at no simulated time).
     *
     * @param service one of the constants
     * @param where   where in the ELF and why it matters, e.g.
     *                {@code "defined by the program at 0x117a4 while the scenario sets step"}
     */
    synchronized void atLoad(final int service, final String where) {
        if (loadCounts[service] == 0) {
            loadCounts[service] = 1;
            first(service, FirmwareFaultLog.NO_TIME, FirmwareFaultLog.NO_HOST, where);
        }
    }

    /**
     * Records a NIC's first use of a service (the NIC counts every use itself) and keeps it if it is the
     * earliest so far; the first record of the service prints the warning.
     *
     * @param service one of the constants
     * @param timePs  the NIC's simulated time, ps ({@link FirmwareFaultLog#NO_TIME} if unknown)
     * @param host    the NIC's host index ({@link FirmwareFaultLog#NO_HOST} if unknown)
     * @param where   what it asked and where, e.g. {@code "returning to doca_pcc_dev_user_algo+0x48"},
     *                {@code "number 0x4e7f at pc 0x1183c (doca_pcc_dev_user_algo+0x54)"},
     *                {@code "with counter ID 0x1000023, returning to nicsim_rt_event+0x68"}
     */
    synchronized void first(final int service, final long timePs, final int host, final String where) {
        final boolean none = firstWhere[service] == null;
        if (none || timePs < firstTimePs[service] || timePs == firstTimePs[service] && host < firstHost[service]) {
            firstWhere[service] = where;
            firstTimePs[service] = timePs;
            firstHost[service] = host;
        }
        if (none) {
            notice.accept("nicsim: warning: firmware " + elf + ": " + NAMES[service] + " " + where + at(timePs, host) + ": "
                + EFFECTS[service] + " (counted in the run summary)");
        }
    }

    /**
     * Uses of a service so far, over every NIC (and at load).
     *
     * @param service one of the constants
     * @return the count
     */
    public synchronized long uses(final int service) {
        long n = loadCounts[service];
        for (final long[] c : nicCounts) {
            n += c[service];
        }
        return n;
    }

    /**
     * One line for the run summary, or null when the program used nothing unmodelled:
     * {@code firmware services   NAME.elf: doca_pcc_dev_trace_5 x 8 (trace records are not modelled:
     * dropped), first: returning to doca_pcc_dev_user_algo+0x48 on host1 at 1.564445 us; ...}, services
     * in the order of the constants.
     *
     * @return the line or null
     */
    public synchronized String summaryLine() {
        final StringBuilder b = new StringBuilder();
        for (int s = 0; s < SERVICES; s++) {
            final long n = uses(s);
            if (n == 0) {
                continue;
            }
            b.append(b.length() == 0 ? String.format(Locale.ROOT, "%-20s%s: ", "firmware services", elf) : "; ")
                .append(NAMES[s]).append(" x ").append(n).append(" (").append(EFFECTS[s]).append("), first: ")
                .append(firstWhere[s]).append(at(firstTimePs[s], firstHost[s]));
        }
        return b.length() == 0 ? null : b.toString();
    }

    private static String at(final long timePs, final int host) {
        final StringBuilder b = new StringBuilder();
        if (host != FirmwareFaultLog.NO_HOST) {
            b.append(" on host").append(host);
        }
        if (timePs != FirmwareFaultLog.NO_TIME) {
            b.append(String.format(Locale.ROOT, " at %d.%06d us", timePs / 1_000_000, timePs % 1_000_000));
        }
        return b.toString();
    }
}
