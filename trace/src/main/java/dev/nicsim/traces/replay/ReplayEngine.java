package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.MailboxLog;
import dev.nicsim.fabric.run.TraceText;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.pcc.CcProcessor;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.microcode.firmware.FirmwareAlgorithm;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.pcc.Units;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.traces.PccEventSink;
import org.agrona.collections.Int2ObjectHashMap;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Runs a stream of PCC events through CC processors ({@code nicsim replay}): one processor per
 * source (NIC) made by {@link ReplayProcessor}, flows started where the trace started them (or at
 * their first event, with the default attributes, when it did not: captures and imported traces),
 * ended where it ended them, events offered at their times, processors advanced as the simulation
 * advances them (before each call to the time of the call, after it, and at the end until idle).
 *
 * <h2>Input</h2>
 * A trace through {@link TraceMessages} ({@link ChronicleTraceReader#read}), or events derived from
 * a capture through {@link PccEventSink} (source = the event's port, the requester address index).
 * Times must not decrease; a call earlier than the previous one is run at the previous time
 * (counted, and the count printed by {@link #printSummary}).
 *
 * <h2>Output</h2>
 * <ul>
 *   <li>{@code events.csv}: {@code time_ns,qpn,type,subtype,sn,num_coalesced}, one row per event
 *       offered, in offer order; time = arrival time (ns, with 3 decimals when not whole), type =
 *       {@link PccEventType#name}, subtype = the record's subtype code.</li>
 *   <li>{@code results.csv}: {@code time_ns,qpn,rate_bits_per_sec,window_bytes,cycles}, one row per
 *       result in delivery order; time = effective time; rate and window = the QP's pacing rate
 *       (20-bit fraction x line rate, {@link FixedPoint#rateToBitsPerSec}) and window after the
 *       result is applied (fields the result leaves unchanged keep their previous value; before
 *       any result a QP runs at line rate with no window; window 0 = unlimited); cycles = the
 *       processor cycles the event took.</li>
 *   <li>A per-QP summary ({@link #printSummary}).</li>
 * </ul>
 *
 * <h2>Verify</h2>
 * With {@link Settings#verify()}, results recorded in the trace ({@link TraceMessages#result}) and
 * replayed results are kept per QP and compared field by field in order (effective time, rate,
 * window, RTT probe, timer, fast start, cycles); {@link #firstDifference()} returns the earliest.
 *
 * <p>Allocation: none per event or result in steady state (CSV rows go through a reused buffer);
 * per-QP state is made once per QP. Thread-safety: not thread-safe; one thread.
 */
public final class ReplayEngine implements TraceMessages, PccEventSink, AutoCloseable {

    /**
     * What to replay into and how to start flows the trace does not start.
     *
     * @param provider           the algorithm
     * @param values             its parameter values
     * @param processor          the CC processor kind
     * @param lineRateBitsPerSec line rate of flows started at their first event, bits/s, positive
     * @param mtuBytes           MTU of such flows, bytes, positive
     * @param baseRttNs          base RTT of such flows, ns, non-negative
     * @param verify             keep recorded and replayed results for {@link #firstDifference()}
     */
    public record Settings(PccAlgorithmProvider provider, PccParameterValues values, ReplayProcessor processor,
                           long lineRateBitsPerSec, int mtuBytes, int baseRttNs, boolean verify,
                           EmulatorConfig emulatorConfig) {

        /**
         * Settings with the emulator's default configuration.
         *
         * @param provider           algorithm
         * @param values             its parameters
         * @param processor          processor kind
         * @param lineRateBitsPerSec line rate, bits/s
         * @param mtuBytes           MTU, bytes
         * @param baseRttNs          base RTT, ns
         * @param verify             compare with recorded results
         */
        public Settings(final PccAlgorithmProvider provider, final PccParameterValues values, final ReplayProcessor processor,
                        final long lineRateBitsPerSec, final int mtuBytes, final int baseRttNs, final boolean verify) {
            this(provider, values, processor, lineRateBitsPerSec, mtuBytes, baseRttNs, verify, null);
        }

        /**
         * Validates the settings.
         *
         * @throws IllegalArgumentException naming the field out of range
         */
        public Settings {
            if (provider == null || values == null || processor == null) {
                throw new IllegalArgumentException("provider, values and processor must not be null");
            }
            if (lineRateBitsPerSec <= 0) {
                throw new IllegalArgumentException("lineRateBitsPerSec: expected > 0, got " + lineRateBitsPerSec);
            }
            if (mtuBytes <= 0) {
                throw new IllegalArgumentException("mtuBytes: expected > 0, got " + mtuBytes);
            }
            if (baseRttNs < 0) {
                throw new IllegalArgumentException("baseRttNs: expected >= 0, got " + baseRttNs);
            }
        }
    }

    /**
     * The first result where the replay and the recording differ.
     *
     * @param timePs   effective time of the recorded result (or of the replayed one when the recording
     *                 has no result there), ps
     * @param source   source (NIC)
     * @param qpn      flow id
     * @param index    0-based index of the result among the QP's results
     * @param field    the differing field ({@code time_ns}, {@code rate}, {@code window_bytes},
     *                 {@code rtt_probe}, {@code timer_ns}, {@code fast_start_packets}, {@code cycles},
     *                 or {@code results} when one side has more)
     * @param recorded the recorded value, as text
     * @param replayed the replayed value, as text
     */
    public record Difference(long timePs, int source, int qpn, int index, String field, String recorded, String replayed) {
        /** @return one line naming the difference, e.g. {@code time_ns=2500 src=0 qpn=1 result #3: rate recorded 524288 vs replayed 262144} */
        public String describe() {
            return "time_ns=" + TraceText.ns(timePs) + " src=" + source + " qpn=" + qpn + " result #" + (index + 1)
                + " of the QP: " + field + " recorded " + recorded + " vs replayed " + replayed;
        }
    }

    private final Settings settings;
    private final ReplayOutput output;
    private final Int2ObjectHashMap<Source> sourceById = new Int2ObjectHashMap<>();
    private final List<Source> sources = new ArrayList<>();
    private long nowPs;
    private long timeRegressions;
    private boolean finished;
    private final Path outDir;
    private List<Scenario.MailboxMessage> mailbox = List.of();
    private int mailboxNext;
    private final MailboxLog mailboxLog = new MailboxLog();
    /** Recorded host calls made again ({@link #hostCall}): mailbox messages, port-state changes. */
    private long recordedMailbox;
    private long recordedPortStates;
    private long skippedHostCalls;

    /**
     * Creates the engine and its output files.
     *
     * @param settings what to replay into
     * @param outDir   output directory, created if missing; {@code events.csv} and {@code results.csv}
     *                 are replaced
     * @throws IOException if a file cannot be created
     */
    public ReplayEngine(final Settings settings, final Path outDir) throws IOException {
        this.settings = settings;
        this.outDir = outDir;
        this.output = new ReplayOutput(outDir, settings.verify());
    }

    /** @return the algorithm the events run through */
    public PccAlgorithmProvider provider() {
        return settings.provider();
    }

    /**
     * Host mailbox messages to deliver during the replay ({@code nicsim replay --firmware ELF --mailbox FILE}):
     * each reaches {@code doca_pcc_dev_user_mailbox_handle} of the firmware of its source (created if not seen
     * yet) or of every source seen so far ({@code nic: all}), at its time, before any input of a later time;
     * messages after the last input are delivered by {@link #finish()}. Replies go to {@code mailbox.csv}
     * ({@link MailboxLog}). Call before the first input.
     *
     * @param messages the messages in time order
     * @throws IllegalStateException when the algorithm is not firmware with a mailbox callback
     */
    public void mailbox(final List<Scenario.MailboxMessage> messages) {
        if (!messages.isEmpty() && !(settings.provider() instanceof FirmwareProvider fp
            && fp.image().hasMailboxHandler())) {
            throw new IllegalStateException("mailbox messages need firmware with doca_pcc_dev_user_mailbox_handle");
        }
        this.mailbox = messages;
    }

    /** Delivers the mailbox messages due at or before t, each at its own time. */
    private void deliverMailboxUntil(final long t) {
        while (mailboxNext < mailbox.size() && mailbox.get(mailboxNext).atPs() <= t) {
            final int i = mailboxNext++;
            final Scenario.MailboxMessage m = mailbox.get(i);
            final long at = Math.max(m.atPs(), nowPs);
            advanceDue(at);
            if (m.nic() != Scenario.ALL_NICS) {
                deliver(source(m.nic()), i, m, at);
            } else if (sources.isEmpty()) {
                mailboxLog.notDelivered(at, -1, i, m);
            } else {
                final Source[] byId = sources.toArray(new Source[0]);
                Arrays.sort(byId, Comparator.comparingInt(s -> s.id));
                for (final Source s : byId) {
                    deliver(s, i, m, at);
                }
            }
        }
    }

    private void deliver(final Source s, final int i, final Scenario.MailboxMessage m, final long at) {
        mailboxLog.delivered(at, s.id, i, m, s.firmware.hostMailbox(m.request(), m.maxResponseBytes(),
            (int) (at / Units.PS_PER_NS), settings.lineRateBitsPerSec()));
        s.nextPs = s.processor.advance(at);
    }

    // ------------------------------------------------------------------ input: trace records

    /** Ignored (the reader has already checked it). */
    @Override
    public void header(final TraceHeader header) {
    }

    /** Starts the flow on its source's processor with the recorded attributes. */
    @Override
    public void flowStart(final TraceFlowStart f) {
        final long t = clock(f.timePs);
        startFlow(source(f.source), f.qpn, t, f.lineRateBitsPerSec, f.mtuBytes, f.baseRttNs, f.initialPsn);
    }

    /** Ends the flow on its source's processor. */
    @Override
    public void flowEnd(final TraceFlowEnd f) {
        final long t = clock(f.timePs);
        final Source s = source(f.source);
        advanceDue(t);
        s.processor.endFlow(f.qpn);
        s.nextPs = s.processor.advance(t);
    }

    /** Offers the recorded event. */
    @Override
    public void event(final TraceEvent e) {
        offer(e.source, e.event(), e.timePs);
    }

    /**
     * Makes a recorded host call again at its time, after every processor due by then has run: a
     * mailbox message reaches the source's {@code doca_pcc_dev_user_mailbox_handle} (reply in
     * {@code mailbox.csv}), a port-state change its {@code doca_pcc_dev_user_port_info_changed}.
     *
     * A Java algorithm has no such callbacks: the call is counted ({@link #skippedHostCalls()}) and not made.
     *
     * @param call the recorded call
     */
    @Override
    public void hostCall(final TraceHostCall call) {
        final long t = clock(call.timePs);
        final Source s = source(call.source);
        advanceDue(t);
        if (s.firmware == null) {
            skippedHostCalls++;
            return;
        }
        if (call.kind == TraceHostCall.KIND_MAILBOX) {
            final byte[] request = call.requestCopy();
            final StringBuilder hex = new StringBuilder(2 * request.length);
            for (final byte b : request) {
                hex.append(Character.forDigit(b >> 4 & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            final Scenario.MailboxMessage m = new Scenario.MailboxMessage(
                t, hex.toString(), call.source, call.maxResponseBytes);
            mailboxLog.delivered(t, s.id, call.index, m, s.firmware.hostMailbox(request, call.maxResponseBytes,
                (int) (t / Units.PS_PER_NS), call.rateBitsPerSec));
            recordedMailbox++;
        } else {
            s.firmware.portStateChanged(call.index != 0, (int) (t / Units.PS_PER_NS), call.rateBitsPerSec);
            recordedPortStates++;
        }
        s.nextPs = s.processor.advance(t);
    }

    /** @return recorded host calls not made: the replayed algorithm is not firmware ({@link #hostCall}) */
    public long skippedHostCalls() {
        return skippedHostCalls;
    }

    /** @return recorded mailbox messages made again ({@link #hostCall}) */
    public long recordedMailboxMessages() {
        return recordedMailbox;
    }

    /** @return recorded port-state changes made again ({@link #hostCall}) */
    public long recordedPortStateChanges() {
        return recordedPortStates;
    }

    /** Keeps a recorded result for {@link #firstDifference()} (only with verify). */
    @Override
    public void result(final TraceResult r) {
        output.recorded(r);
    }

    // ------------------------------------------------------------------ input: derived events

    /** An event derived from a capture: offered to the source named by its port. */
    @Override
    public void onEvent(final PccEvent event, final long timePs) {
        offer(event.port(), event, timePs);
    }

    // ------------------------------------------------------------------ driving

    private long clock(final long timePs) {
        if (timePs < nowPs) {
            timeRegressions++;
            return nowPs;
        }
        deliverMailboxUntil(timePs);
        nowPs = timePs;
        return timePs;
    }

    private void offer(final int sourceId, final PccEvent e, final long timePs) {
        final long t = clock(timePs);
        final Source s = source(sourceId);
        final int qpn = e.flowId();
        final ReplayOutput.Qp q = output.qp(sourceId, qpn);
        if (!q.started) {
            startFlow(s, qpn, t, settings.lineRateBitsPerSec(), settings.mtuBytes(), settings.baseRttNs(),
                firstPsnCovered(e));
        } else {
            advanceDue(t);
        }
        final int type = e.type();
        if (type >= PccEventType.COUNT) {
            throw new TraceException("event of unknown type " + type + " at time_ns=" + TraceText.ns(t) + " for qpn " + qpn);
        }
        output.offered(q, e, t);
        s.processor.offer(e, t);
        s.nextPs = s.processor.advance(t);
    }

    /**
     * A capture holds no QP setup, so a flow derived from it starts at the first PSN its first event
     * covers: a TX_BURST's or ACK's first sequence number (the first packet sent or acknowledged),
     * any other event's sequence number.
     */
    private static int firstPsnCovered(final PccEvent e) {
        final int type = e.type();
        final int psn = type == PccEventType.TX_BURST || type == PccEventType.ACK ? e.firstSn() : e.sn();
        return psn & PccEventLayout.MASK_24;
    }

    private void startFlow(final Source s, final int qpn, final long t, final long lineRateBitsPerSec,
                           final int mtuBytes, final int baseRttNs, final int initialPsn) {
        advanceDue(t);
        output.qp(s.id, qpn).start(lineRateBitsPerSec);
        try {
            s.processor.startFlow(qpn, t, lineRateBitsPerSec, mtuBytes, baseRttNs, initialPsn);
        } catch (final IllegalStateException e) {
            throw new TraceException("cannot start qpn " + qpn + " of source " + s.id + " at time_ns=" + TraceText.ns(t)
                + ": " + e.getMessage());
        }
        s.nextPs = s.processor.advance(t);
    }

    /** Advances every processor that asked to run at or before t. */
    private void advanceDue(final long t) {
        for (int i = 0; i < sources.size(); i++) {
            final Source s = sources.get(i);
            if (s.nextPs <= t) {
                s.nextPs = s.processor.advance(t);
            }
        }
    }

    private Source source(final int id) {
        Source s = sourceById.get(id);
        if (s == null) {
            if (id < 0) {
                throw new TraceException("negative source id " + id + " in the trace");
            }
            s = new Source(id);
            sourceById.put(id, s);
            sources.add(s);
        }
        return s;
    }

    /**
     * Runs every processor until idle and flushes the output files. Call once after the last input.
     *
     * @throws IOException if writing an output file failed
     */
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        while (mailboxNext < mailbox.size()) { // messages after the last input, each at its time
            final long at = mailbox.get(mailboxNext).atPs();
            deliverMailboxUntil(at); // advances every processor due by then first
            nowPs = Math.max(nowPs, at);
        }
        if (!mailbox.isEmpty() || recordedMailbox > 0) {
            mailboxLog.write(outDir);
        }
        for (int i = 0; i < sources.size(); i++) {
            final Source s = sources.get(i);
            long guard = 0;
            while (s.nextPs != Long.MAX_VALUE) {
                final long at = Math.max(s.nextPs, nowPs);
                s.nextPs = s.processor.advance(at);
                if (++guard > 100_000_000L) {
                    throw new IllegalStateException("processor of source " + s.id + " never becomes idle");
                }
            }
        }
        output.flush();
    }

    // ------------------------------------------------------------------ verify

    /**
     * Compares recorded and replayed results (after {@link #finish()}).
     *
     * @return the earliest difference (by effective time, then source and QPN), or null if every QP's
     *         results are equal
     * @throws IllegalStateException if the engine was created without verify
     */
    public Difference firstDifference() {
        if (!settings.verify()) {
            throw new IllegalStateException("verify was not enabled");
        }
        return output.firstDifference();
    }

    /** @return the mailbox messages' replies so far ({@code mailbox.csv}) */
    public MailboxLog mailboxLog() {
        return mailboxLog;
    }

    /** @return results the processors delivered */
    public long results() {
        return output.results();
    }

    /** @return results recorded in the trace */
    public long recordedResults() {
        return output.recordedResults();
    }

    /** @return QPs seen (started or with events) */
    public int qpCount() {
        return output.qpCount();
    }

    /** Sums a processor counter (as its {@code forEachCounter} names it) over every source; 0 if none has it. */
    private long processorCounter(final String name) {
        final long[] sum = {0};
        for (final Source s : sources) {
            s.processor.forEachCounter((n, v) -> {
                if (n.equals(name)) {
                    sum[0] += v;
                }
            });
        }
        return sum[0];
    }

    /**
     * Prints the per-QP summary: a line of totals, then one row per QP (sorted by source and QPN)
     * with its events, results, first and last event time, final and lowest rate, final window,
     * and mean and largest cycles per result.
     *
     * @param out where to print
     */
    public void printSummary(final PrintStream out) {
        final StringBuilder types = new StringBuilder();
        for (int t = 0; t < PccEventType.COUNT; t++) {
            if (types.length() > 0) {
                types.append(", ");
            }
            types.append(PccEventType.name(t)).append(' ').append(output.events(t));
        }
        out.printf(Locale.ROOT, "replayed %d events (%s) of %d QPs on %d sources through %s on the %s processor: %d results%n",
            output.events(), types, output.qpCount(), sources.size(), settings.provider().name(), settings.processor().cliName(),
            output.results());
        long coalesced = 0;
        long dropped = 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            coalesced += processorCounter(PccEventType.shortName(t) + "_events_coalesced");
            dropped += processorCounter(PccEventType.shortName(t) + "_events_dropped");
        }
        out.printf(Locale.ROOT, "processor: %d events coalesced, %d dropped, %d for unknown flows%n", coalesced, dropped,
            processorCounter("events_for_unknown_flow"));
        output.printQpTable(out);
        if (timeRegressions > 0) {
            out.printf(Locale.ROOT, "%d calls went back in time and ran at the previous call's time%n", timeRegressions);
        }
    }

    /** Closes the output files (idempotent) and the processors that hold resources. */
    @Override
    public void close() {
        try {
            output.close();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot close the replay output: " + e.getMessage(), e);
        } finally {
            for (final Source s : sources) {
                if (s.processor instanceof AutoCloseable c) {
                    try {
                        c.close();
                    } catch (final Exception ignored) {
                        // a stepped emulator has no threads to stop; nothing to report
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ state

    /** One source (NIC): its processor and when it wants to run next. */
    private final class Source implements CcResultSink {
        final int id;
        final CcProcessor processor;
        long nextPs = Long.MAX_VALUE;
        /** Firmware only: the instance of core 0, which takes mailbox messages. */
        FirmwareAlgorithm firmware;

        Source(final int id) {
            this.id = id;
            final Supplier<PccAlgorithm> instances = settings.provider().processorInstances(settings.values());
            this.processor = settings.processor().create(() -> {
                final PccAlgorithm a = instances.get();
                if (firmware == null && a instanceof FirmwareAlgorithm f) {
                    firmware = f;
                }
                return a;
            }, this, settings.emulatorConfig());
        }

        @Override
        public void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
            output.replayed(id, qpn, result, effectivePs, cycles);
        }
    }
}
