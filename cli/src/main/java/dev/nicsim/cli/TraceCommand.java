package dev.nicsim.cli;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.traces.CaptureException;
import dev.nicsim.traces.CaptureStats;
import dev.nicsim.traces.PccEventDeriver;
import dev.nicsim.traces.PccEventSink;
import dev.nicsim.traces.replay.ChronicleTraceReader;
import dev.nicsim.traces.replay.ChronicleTraceWriter;
import dev.nicsim.traces.replay.TraceEvent;
import dev.nicsim.traces.replay.TraceException;
import dev.nicsim.traces.replay.TraceFlowEnd;
import dev.nicsim.traces.replay.TraceFlowStart;
import dev.nicsim.traces.replay.TraceHeader;
import dev.nicsim.traces.replay.TraceHostCall;
import dev.nicsim.traces.replay.TraceMessages;
import dev.nicsim.traces.replay.TraceQueues;
import dev.nicsim.traces.replay.TraceResult;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code nicsim trace import CAPTURE --to TRACE_DIR [--burst-gap-ns N] [--lenient] [--reorder-window-ns N]} and
 * {@code nicsim trace dump TRACE_DIR}: turn a real NIC dump into a trace of the PCC events a
 * requester NIC would have seen (the same kind of Chronicle Queue {@code nicsim run --record}
 * writes; derivation by {@link PccEventDeriver}), and print a trace as text, one line per record.
 * A capture that turns out bad part-way is reported (exit 2) and leaves no partial trace.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
    description = "Import packet captures into PCC event traces and print traces.",
    subcommands = {TraceCommand.ImportCommand.class, TraceCommand.DumpCommand.class})
final class TraceCommand implements Callable<Integer> {
    /** Creates the command (picocli instantiates it). */
    TraceCommand() {
    }

    /**
     * Without a subcommand: the usage on standard error and exit 2, as every command group
     * (and {@code riscv}) does.
     *
     * @return {@link NicsimCommand#EXIT_BAD_INPUT}
     */
    @Override
    public Integer call() {
        CommandLine.usage(this, System.err);
        return NicsimCommand.EXIT_BAD_INPUT;
    }

    /** Largest {@code --burst-gap-ns}: one second, the range {@link PccEventDeriver} takes. */
    static final long MAX_BURST_GAP_NS = 1_000_000_000L;

    /**
     * Checks {@code --burst-gap-ns} before anything is written (import and replay of a capture).
     *
     * @param burstGapNs the option's value, ns
     * @throws OptionException naming the option unless it is 1 .. {@link #MAX_BURST_GAP_NS}
     */
    static void checkBurstGap(final long burstGapNs) {
        if (burstGapNs < 1 || burstGapNs > MAX_BURST_GAP_NS) {
            throw new OptionException("--burst-gap-ns " + burstGapNs + ": expected a gap of 1.." + MAX_BURST_GAP_NS
                + " ns (one second)");
        }
    }

    /** {@code nicsim trace import}. */
    @Command(name = "import", mixinStandardHelpOptions = true,
        description = "Derive the PCC events of a pcap/pcapng capture (TX_BURST, ACK, NACK, CNP, RTT_RESPONSE per"
            + " requester QP) and write them to a trace; prints the capture's counts.")
    static final class ImportCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "CAPTURE", description = "pcap or pcapng file (Ethernet or ERF InfiniBand)")
        Path capture;

        @Option(names = "--to", required = true, paramLabel = "TRACE_DIR",
            description = "Trace directory to write (new, empty, or an earlier trace, which is replaced)")
        Path to;

        @Option(names = "--burst-gap-ns", paramLabel = "N", defaultValue = "10000",
            description = "A TX burst ends when the next request packet is more than N ns later (default ${DEFAULT-VALUE})")
        long burstGapNs;

        @Option(names = "--lenient", description = "Skip and count packets cut by the snap length or holding garbage"
            + " instead of stopping at the first")
        boolean lenient;

        @Mixin
        ReorderWindowOption reorderWindow = new ReorderWindowOption();

        @Override
        public Integer call() throws CaptureException {
            OutputPaths.nonEmpty("--to", to);
            reorderWindow.check();
            checkBurstGap(burstGapNs);
            final PccEventDeriver[] deriver = new PccEventDeriver[1];
            final EventCounts counts = new EventCounts();
            final TraceHeader header = new TraceHeader();
            header.origin = TraceHeader.ORIGIN_CAPTURE;
            header.input = capture.toString();
            final CaptureStats stats;
            final long written;
            boolean complete = false;
            OutputPaths.setWriting(to);
            final ChronicleTraceWriter created = ChronicleTraceWriter.create(to, header);
            try (ChronicleTraceWriter trace = created) {
                final PccEventSink sink = trace.eventSink();
                final PccEventSink counting = (e, timePs) -> {
                    counts.add(e);
                    sink.onEvent(e, timePs);
                };
                try {
                    deriver[0] = new PccEventDeriver(counting, burstGapNs, PccEventDeriver.DEFAULT_PAIRING_WAIT_NS, true);
                } catch (final IllegalArgumentException e) {
                    throw new TraceException("--burst-gap-ns: " + e.getMessage());
                }
                stats = deriver[0].derive(reorderWindow.decoder(!lenient), capture);
                written = trace.events();
                trace.finish();
                complete = true;
            } finally {
                if (!complete) {
                    TraceQueues.deleteTrace(to); // no partial trace is left behind
                }
            }
            final PrintStream out = System.out;
            out.print(stats.report());
            final PccEventDeriver d = deriver[0];
            out.printf(Locale.ROOT, "events: %s (%d) for %d flows on %d requester addresses%n", counts.byType(), written,
                counts.flows(), d.endpointCount());
            out.printf(Locale.ROOT, "not events: %d packets without a flow (UD, management), %d duplicate ACKs, %d NAKs with"
                    + " other codes, %d pause frames; %d TX bursts unpaired (responder QPN), %d CE-marked requests%n",
                d.packetsWithoutFlow(), d.duplicateAcks(), d.naksOtherCode(), d.pauseFrames(), d.txBurstsUnpaired(),
                d.ceMarkedRequests());
            for (int port = 0; port < d.endpointCount(); port++) {
                out.printf(Locale.ROOT, "source %d = %s%n", port, d.endpointAddress(port));
            }
            out.println("trace written to " + to);
            return 0;
        }
    }

    /** {@code nicsim trace dump}. */
    @Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print a trace as text: the header, then one line per flow start, event, result and flow end.")
    static final class DumpCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TRACE_DIR", description = "Trace directory (nicsim run --record or trace import)")
        Path dir;

        @Override
        public Integer call() {
            final PrintStream out = System.out;
            try (ChronicleTraceReader reader = ChronicleTraceReader.open(dir)) {
                reader.read(new Printer(out));
            }
            out.flush();
            return 0;
        }
    }

    /** Prints each record as one line ({@code toString()} / {@code appendTo} of the records). */
    static final class Printer implements TraceMessages {
        private final PrintStream out;
        private final StringBuilder line = new StringBuilder(256);
        private final Long2LongHashMap lineRates = new Long2LongHashMap(0);

        Printer(final PrintStream out) {
            this.out = out;
        }

        private static long key(final int source, final int qpn) {
            return ((long) source << 32) | (qpn & 0xFFFF_FFFFL);
        }

        @Override
        public void header(final TraceHeader header) {
            out.println(header);
        }

        @Override
        public void flowStart(final TraceFlowStart flowStart) {
            lineRates.put(key(flowStart.source, flowStart.qpn), flowStart.lineRateBitsPerSec);
            out.println(flowStart);
        }

        @Override
        public void flowEnd(final TraceFlowEnd flowEnd) {
            out.println(flowEnd);
        }

        @Override
        public void event(final TraceEvent event) {
            line.setLength(0);
            out.println(event.appendTo(line));
        }

        @Override
        public void result(final TraceResult result) {
            line.setLength(0);
            out.println(result.appendTo(line, lineRates.get(key(result.source, result.qpn))));
        }

        @Override
        public void hostCall(final TraceHostCall call) {
            out.println(call);
        }
    }

    /** Counts imported events by type and distinct flows (port, QPN). */
    static final class EventCounts {
        private final long[] byType = new long[PccEventType.COUNT];
        private final LongHashSet flows = new LongHashSet();

        void add(final PccEvent e) {
            if (e.type() < PccEventType.COUNT) {
                byType[e.type()]++;
            }
            flows.add(((long) e.port() << 32) | (e.flowId() & 0xFFFF_FFFFL));
        }

        String byType() {
            final StringBuilder b = new StringBuilder();
            for (int t = 0; t < PccEventType.COUNT; t++) {
                b.append(t == 0 ? "" : ", ").append(PccEventType.name(t)).append(' ').append(byType[t]);
            }
            return b.toString();
        }

        int flows() {
            return flows.size();
        }
    }
}
