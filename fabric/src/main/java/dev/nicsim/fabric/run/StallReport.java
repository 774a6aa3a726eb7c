package dev.nicsim.fabric.run;

import dev.nicsim.nic.FlowProgress;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The run summary's account of flows that did not finish: one or two lines, printed only when a
 * flow is unfinished at the end (a run whose flows all complete prints nothing of it, so the
 * summaries of such runs are unchanged).
 *
 * <h2>No progress</h2>
 * A flow makes progress when a byte of its message is newly acknowledged (WRITE/SEND: an ACK, or a
 * NAK, moves the oldest unacknowledged packet on; READ: a READ response is accepted in order).
 * An unfinished flow is <em>stalled</em> when none of its bytes was acknowledged during the last
 * {@link #NO_PROGRESS_PS} (100 us) of the run, counting from its start when it never had one
 * acknowledged; so a flow that started less than 100 us before the end is never stalled. A flow at a
 * low pacer rate that still gets a packet acknowledged now and then is not stalled: it is unfinished
 * and progressing.
 *
 * <h2>Lines</h2>
 * With stalled flows:
 * <pre>
 * stalled flows       1 of 1 (0): no byte acknowledged since 23.072 us (1976.928 us to the end); rate 953 b/s
 *                     (1/2^20 of line rate), the lowest their CC set, since 1.654 us; the run reached its stop
 *                     time 2000.000 us
 *                     last: firmware doca_rp_np_raw.elf asked for 1 RTT probe (last result at 24.495 us); the
 *                     hardware RTT responder answered 1 (no firmware.np program: its raw data are timestamps)
 * </pre>
 * (two lines, wrapped here). Flows are listed in ascending id order, the first
 * {@link #LISTED_FLOWS}. "Since" is the latest time any of the stalled flows made progress, and the
 * latest time any of their rates changed; the rate is their rate now (a range when they differ), with
 * its 20-bit PCC fraction of line rate when they share one. The second line says what their
 * congestion control last asked of the NIC: RTT probes and who answered them (the NICs' hardware
 * responders, whose raw data are the three RTT timestamps, or the {@code firmware.np} program with
 * its failures), else when its last result took effect; and the firmware's abandoned calls.
 * Unfinished flows that still progress get one {@code unfinished flows} line instead (or a clause
 * of the first line): how many, how far their messages got, their rates and why the run ended (its
 * stop time, or no event left).
 *
 * <p>Everything comes from simulated state, so the lines are the same for the same scenario and seed.
 * Thread-safety: immutable.
 */
public final class StallReport {
    /** The stretch without an acknowledged byte that makes an unfinished flow stalled: 100 us, in ps. */
    public static final long NO_PROGRESS_PS = 100_000_000L;
    /** Flow ids listed in a line; more are shown as {@code ...}. */
    public static final int LISTED_FLOWS = 8;
    private static final String INDENT = " ".repeat(20);

    private final List<String> lines;

    private StallReport(final List<String> lines) {
        this.lines = List.copyOf(lines);
    }

    /**
     * What the run's congestion control and notification points were, for the second line.
     *
     * @param algorithm   the reaction point: {@code firmware NAME.elf} or {@code algorithm NAME}
     * @param npProgram   the {@code firmware.np} ELF's file name, or null for the hardware RTT responders
     * @param npCalls     calls of the NP program (all NICs)
     * @param npFaults    of those, abandoned on a trap (no answer sent)
     * @param npBudget    of those, abandoned at the instruction budget (no answer sent)
     * @param npFailed    of those, returned FAIL (answered)
     * @param fwFaults    reaction-point firmware calls abandoned on a trap (0 for Java algorithms)
     * @param fwBudget    reaction-point firmware calls abandoned at the instruction budget
     */
    public record Context(String algorithm, String npProgram, long npCalls, long npFaults, long npBudget, long npFailed,
                          long fwFaults, long fwBudget) {
    }

    /**
     * Builds the report of a finished run.
     *
     * @param unfinished     every unfinished flow that started, from the NICs ({@link dev.nicsim.nic.RoceNic#unfinishedFlows})
     * @param lineRates      per unfinished flow (same order), its requester's line rate, bits/s
     * @param notStarted     flows whose start time had not come when the run ended
     * @param totalFlows     flows of the workload
     * @param endPs          the run's end, ps
     * @param stopPs         the scenario's stop time, ps
     * @param outOfEvents    whether the run ended because no event was left (before the stop time)
     * @param context        what ran
     * @return the report; {@link #lines()} is empty when every flow completed
     */
    public static StallReport of(final List<FlowProgress> unfinished, final long[] lineRates, final int notStarted,
                                 final int totalFlows, final long endPs, final long stopPs, final boolean outOfEvents,
                                 final Context context) {
        final List<Integer> stalled = new ArrayList<>();
        final List<Integer> moving = new ArrayList<>();
        for (int i = 0; i < unfinished.size(); i++) {
            final FlowProgress f = unfinished.get(i);
            if (endPs - f.progressPs() >= NO_PROGRESS_PS) {
                stalled.add(i);
            } else {
                moving.add(i);
            }
        }
        final Comparator<Integer> byFlowId = Comparator.comparingInt(i -> unfinished.get(i).flowId());
        stalled.sort(byFlowId);
        moving.sort(byFlowId);
        final List<String> out = new ArrayList<>();
        final String why = outOfEvents
            ? String.format(Locale.ROOT, "no event was left at %s", us(endPs))
            : String.format(Locale.ROOT, "the run reached its stop time %s", us(Math.min(endPs, stopPs)));
        if (!stalled.isEmpty()) {
            long since = 0;
            long rateSince = 0;
            for (final int i : stalled) {
                since = Math.max(since, unfinished.get(i).progressPs());
                rateSince = Math.max(rateSince, unfinished.get(i).rateSincePs());
            }
            final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-20s%d of %d (%s): no byte acknowledged since %s"
                + " (%s to the end); %s, since %s", "stalled flows", stalled.size(), totalFlows, ids(unfinished, stalled), us(since),
                us(endPs - since), rates(unfinished, lineRates, stalled), us(rateSince)));
            if (!moving.isEmpty()) {
                b.append(String.format(Locale.ROOT, "; %d more unfinished, still progressing", moving.size()));
            }
            if (notStarted > 0) {
                b.append(String.format(Locale.ROOT, "; %d not started", notStarted));
            }
            b.append("; ").append(why);
            out.add(b.toString());
            out.add(INDENT + "last: " + last(unfinished, stalled, context));
        } else if (!moving.isEmpty() || notStarted > 0) {
            long acked = 0;
            long size = 0;
            long lastProgress = 0;
            for (final int i : moving) {
                acked += unfinished.get(i).ackedBytes();
                size += unfinished.get(i).sizeBytes();
                lastProgress = Math.max(lastProgress, unfinished.get(i).progressPs());
            }
            final StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-20s%d of %d", "unfinished flows",
                moving.size() + notStarted, totalFlows));
            if (!moving.isEmpty()) {
                b.append(String.format(Locale.ROOT, " (%s) still progressing: %d of %d bytes acknowledged, last at %s; %s",
                    ids(unfinished, moving), acked, size, us(lastProgress), rates(unfinished, lineRates, moving)));
            }
            if (notStarted > 0) {
                b.append(String.format(Locale.ROOT, "%s%d not started", moving.isEmpty() ? ": " : "; ", notStarted));
            }
            out.add(b.append("; ").append(why).toString());
        }
        return new StallReport(out);
    }

    /** @return the summary lines, none when every flow completed */
    public List<String> lines() {
        return lines;
    }

    private static String last(final List<FlowProgress> flows, final List<Integer> idx, final Context c) {
        long probes = 0;
        long answers = 0;
        long lastResult = -1;
        boolean waiting = true;
        for (final int i : idx) {
            final FlowProgress f = flows.get(i);
            probes += f.rttProbes();
            answers += f.rttResponses();
            lastResult = Math.max(lastResult, f.lastResultPs());
            waiting &= f.awaitingInit();
        }
        final StringBuilder b = new StringBuilder(c.algorithm());
        if (waiting) {
            b.append(" gave none of them a first result: they wait for it before sending");
        } else if (probes > 0) {
            b.append(String.format(Locale.ROOT, " asked for %d RTT probe%s (last result at %s); ", probes, probes == 1 ? "" : "s",
                us(lastResult)));
            if (c.npProgram() == null) {
                b.append(String.format(Locale.ROOT, "the hardware RTT responder answered %d (no firmware.np program: its raw data"
                    + " are timestamps)", answers));
            } else {
                b.append(String.format(Locale.ROOT, "the NP program %s answered %d (all NICs: %d calls, %d faults and %d over the"
                    + " budget unanswered, %d FAIL)", c.npProgram(), answers, c.npCalls(), c.npFaults(), c.npBudget(), c.npFailed()));
            }
        } else if (lastResult >= 0) {
            b.append(String.format(Locale.ROOT, " asked for no RTT probe; its last result took effect at %s", us(lastResult)));
        } else {
            b.append(" set nothing: no result took effect");
        }
        if (c.fwFaults() > 0 || c.fwBudget() > 0) {
            b.append(String.format(Locale.ROOT, "; firmware calls abandoned: %d faults, %d over the budget (firmware line)",
                c.fwFaults(), c.fwBudget()));
        }
        return b.toString();
    }

    private static String ids(final List<FlowProgress> flows, final List<Integer> idx) {
        final StringBuilder b = new StringBuilder();
        for (int k = 0; k < idx.size(); k++) {
            if (k == LISTED_FLOWS) {
                return b.append(", ...").toString();
            }
            b.append(k == 0 ? "" : ", ").append(flows.get(idx.get(k)).flowId());
        }
        return b.toString();
    }

    /** The rate of the flows now: one value with its PCC fraction, or a range. */
    private static String rates(final List<FlowProgress> flows, final long[] lineRates, final List<Integer> idx) {
        long lo = Long.MAX_VALUE;
        long hi = 0;
        boolean atLowest = true;
        boolean oneLine = true;
        for (final int i : idx) {
            final FlowProgress f = flows.get(i);
            lo = Math.min(lo, f.rateBitsPerSec());
            hi = Math.max(hi, f.rateBitsPerSec());
            atLowest &= f.rateBitsPerSec() == f.lowestRateBitsPerSec() && f.rateBitsPerSec() < lineRates[i];
            oneLine &= lineRates[i] == lineRates[idx.get(0)];
        }
        if (lo != hi) {
            return "rates " + bps(lo) + " .. " + bps(hi) + (atLowest ? ", each the lowest its CC set" : "");
        }
        final StringBuilder b = new StringBuilder("rate ").append(bps(lo));
        if (oneLine) {
            final long line = lineRates[idx.get(0)];
            final long units = Math.round(lo * (double) (1 << 20) / line);
            b.append(units == 1 << 20 ? " (line rate)" : " (" + units + "/2^20 of line rate)");
        }
        return b.append(atLowest ? ", the lowest their CC set" : "").toString();
    }

    /** Microseconds with three decimals: {@code 23.072 us}. */
    static String us(final long ps) {
        return BigDecimal.valueOf(ps, 6).setScale(3, RoundingMode.HALF_UP).toPlainString() + " us";
    }

    /** A rate with four significant digits in b/s, kb/s, Mb/s or Gb/s: {@code 953.7 b/s}, {@code 6.104 Mb/s}. */
    static String bps(final long bitsPerSec) {
        final String[] units = {"b/s", "kb/s", "Mb/s", "Gb/s"};
        int u = 0;
        BigDecimal v = BigDecimal.valueOf(bitsPerSec);
        while (u < units.length - 1 && v.compareTo(BigDecimal.valueOf(1000)) >= 0) {
            v = v.movePointLeft(3);
            u++;
        }
        return v.round(new MathContext(4)).stripTrailingZeros().toPlainString() + " " + units[u];
    }
}
