package dev.nicsim.traces.replay;

import dev.nicsim.fabric.run.TraceText;
import dev.nicsim.pcc.FixedPoint;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a {@link ReplayEngine} writes and reports: the rows of {@code events.csv} and
 * {@code results.csv} (formats in {@link ReplayEngine}), each QP's state and statistics (rate and
 * window after its results, events, results, cycles), and, with verify, each QP's recorded and
 * replayed results for {@link #firstDifference()}.
 *
 * <p>Allocation: none per event or result in steady state (rows go through a reused buffer; a QP's
 * state is made once; the verify logs grow by doubling). A write error is kept and thrown by
 * {@link #flush()}. Thread-safety: not thread-safe; one thread.
 */
final class ReplayOutput implements AutoCloseable {
    private static final String[] FIELDS = {"time_ns", "rate", "window_bytes", "rtt_probe", "timer_ns",
        "fast_start_packets", "cycles"};

    private final boolean verify;
    private final AsciiFileWriter eventsCsv;
    private final AsciiFileWriter resultsCsv;
    private final StringBuilder row = new StringBuilder(96);
    private final Long2ObjectHashMap<Qp> qps = new Long2ObjectHashMap<>();
    private final long[] eventsByType = new long[PccEventType.COUNT + 1];
    private long events;
    private long results;
    private long recordedResults;
    private IOException writeError;

    /**
     * Creates the output files with their header rows.
     *
     * @param outDir output directory, created if missing; {@code events.csv} and {@code results.csv}
     *               are replaced
     * @param verify keep recorded and replayed results per QP
     * @throws IOException if a file cannot be created
     */
    ReplayOutput(final Path outDir, final boolean verify) throws IOException {
        this.verify = verify;
        Files.createDirectories(outDir);
        final AsciiFileWriter ev = new AsciiFileWriter(outDir.resolve("events.csv"));
        AsciiFileWriter rs = null;
        try {
            ev.append("time_ns,qpn,type,subtype,sn,num_coalesced\n");
            rs = new AsciiFileWriter(outDir.resolve("results.csv"));
            rs.append("time_ns,qpn,rate_bits_per_sec,window_bytes,cycles\n");
        } catch (final IOException e) {
            ev.close();
            if (rs != null) {
                rs.close();
            }
            throw e;
        }
        this.eventsCsv = ev;
        this.resultsCsv = rs;
    }

    /**
     * The state of one QP, made on first use.
     *
     * @param sourceId source (NIC)
     * @param qpn      flow id
     * @return its state
     */
    Qp qp(final int sourceId, final int qpn) {
        final long key = ((long) sourceId << 32) | (qpn & 0xFFFF_FFFFL);
        Qp q = qps.get(key);
        if (q == null) {
            q = new Qp(sourceId, qpn, verify);
            qps.put(key, q);
        }
        return q;
    }

    /**
     * Counts an event offered to QP q and writes its {@code events.csv} row.
     *
     * @param q    the QP
     * @param e    the event; its type below {@link PccEventType#COUNT}
     * @param t    arrival time, ps
     */
    void offered(final Qp q, final PccEvent e, final long t) {
        final int type = e.type();
        events++;
        eventsByType[type]++;
        q.events++;
        if (q.firstEventPs < 0) {
            q.firstEventPs = t;
        }
        q.lastEventPs = t;
        row.setLength(0);
        TraceText.appendNs(row, t);
        row.append(',').append(q.qpn).append(',').append(PccEventType.name(type)).append(',').append(e.subtype())
            .append(',').append(e.sn()).append(',').append(e.numCoalesced()).append('\n');
        writeRow(eventsCsv);
    }

    /**
     * Applies a replayed result to its QP and writes its {@code results.csv} row.
     *
     * @param sourceId    source (NIC)
     * @param qpn         flow id
     * @param r           the result
     * @param effectivePs when it takes effect, ps
     * @param cycles      processor cycles the event took
     */
    void replayed(final int sourceId, final int qpn, final PccResult r, final long effectivePs, final long cycles) {
        final Qp q = qp(sourceId, qpn);
        results++;
        q.results++;
        q.cycles += cycles;
        q.maxCycles = Math.max(q.maxCycles, cycles);
        if (r.rate() != PccResult.RATE_UNCHANGED) {
            q.rateBitsPerSec = FixedPoint.rateToBitsPerSec(r.rate(), q.lineRateBitsPerSec);
            q.minRateBitsPerSec = Math.min(q.minRateBitsPerSec, q.rateBitsPerSec);
        }
        if (r.windowBytes() != PccResult.WINDOW_UNCHANGED) {
            q.windowBytes = r.windowBytes();
        }
        if (q.replayed != null) {
            q.replayed.add(effectivePs, r.rate(), r.windowBytes(), r.rttProbeRequest(), r.timerNs(),
                r.fastStartPackets(), cycles);
        }
        row.setLength(0);
        TraceText.appendNs(row, effectivePs);
        row.append(',').append(qpn).append(',').append(q.rateBitsPerSec).append(',').append(q.windowBytes)
            .append(',').append(cycles).append('\n');
        writeRow(resultsCsv);
    }

    /**
     * Counts a result recorded in the trace and, with verify, keeps it.
     *
     * @param r the recorded result
     */
    void recorded(final TraceResult r) {
        recordedResults++;
        if (verify) {
            qp(r.source, r.qpn).recorded.add(r.effectivePs, r.rate, r.windowBytes, r.rttProbe, r.timerNs,
                r.fastStartPackets, r.cycles);
        }
    }

    private void writeRow(final AsciiFileWriter w) {
        try {
            w.append(row);
        } catch (final IOException e) {
            if (writeError == null) {
                writeError = e;
            }
        }
    }

    /**
     * Flushes both files.
     *
     * @throws IOException the first write error so far, or the flush's
     */
    void flush() throws IOException {
        eventsCsv.flush();
        resultsCsv.flush();
        if (writeError != null) {
            throw writeError;
        }
    }

    /** @return events offered */
    long events() {
        return events;
    }

    /** @return events of type t offered, t a {@link PccEventType} code */
    long events(final int t) {
        return eventsByType[t];
    }

    /** @return results the processors delivered */
    long results() {
        return results;
    }

    /** @return results recorded in the trace */
    long recordedResults() {
        return recordedResults;
    }

    /** @return QPs seen */
    int qpCount() {
        return qps.size();
    }

    /**
     * Compares recorded and replayed results (see {@link ReplayEngine#firstDifference()}).
     *
     * @return the earliest difference, or null
     */
    ReplayEngine.Difference firstDifference() {
        ReplayEngine.Difference first = null;
        for (final long key : sortedKeys()) {
            final ReplayEngine.Difference d = compare(qps.get(key));
            if (d != null && (first == null || d.timePs() < first.timePs())) {
                first = d;
            }
        }
        return first;
    }

    private static ReplayEngine.Difference compare(final Qp q) {
        final ResultLog a = q.recorded;
        final ResultLog b = q.replayed;
        final int n = Math.min(a.size, b.size);
        for (int i = 0; i < n; i++) {
            for (int f = 0; f < FIELDS.length; f++) {
                final long x = a.field(f, i);
                final long y = b.field(f, i);
                if (x != y) {
                    return new ReplayEngine.Difference(a.effectivePs[i], q.source, q.qpn, i, FIELDS[f],
                        a.text(f, i, q.lineRateBitsPerSec), b.text(f, i, q.lineRateBitsPerSec));
                }
            }
        }
        if (a.size != b.size) {
            final long t = a.size > n ? a.effectivePs[n] : b.effectivePs[n];
            return new ReplayEngine.Difference(t, q.source, q.qpn, n, "results", a.size + " results", b.size + " results");
        }
        return null;
    }

    private long[] sortedKeys() {
        final long[] keys = new long[qps.size()];
        int i = 0;
        final Long2ObjectHashMap<Qp>.KeyIterator it = qps.keySet().iterator();
        while (it.hasNext()) {
            keys[i++] = it.nextLong();
        }
        Arrays.sort(keys);
        return keys;
    }

    /**
     * Prints the per-QP table: a header, then one row per QP sorted by source and QPN with its events,
     * results, first and last event time, final and lowest rate, final window, and mean and largest
     * cycles per result.
     *
     * @param out where to print
     */
    void printQpTable(final PrintStream out) {
        out.printf(Locale.ROOT, "%4s %9s %8s %8s %14s %14s %10s %10s %12s %10s %10s%n", "src", "qpn", "events", "results",
            "first_ns", "last_ns", "rate_gbps", "min_gbps", "window_bytes", "mean_cyc", "max_cyc");
        for (final long key : sortedKeys()) {
            final Qp q = qps.get(key);
            out.printf(Locale.ROOT, "%4d %9d %8d %8d %14s %14s %10.3f %10.3f %12d %10.1f %10d%n", q.source, q.qpn, q.events,
                q.results, q.firstEventPs < 0 ? "-" : TraceText.ns(q.firstEventPs),
                q.lastEventPs < 0 ? "-" : TraceText.ns(q.lastEventPs), q.rateBitsPerSec / 1e9, q.minRateBitsPerSec / 1e9,
                q.windowBytes, q.results == 0 ? 0.0 : q.cycles / (double) q.results, q.maxCycles);
        }
    }

    /** Closes both files (idempotent). */
    @Override
    public void close() throws IOException {
        eventsCsv.close();
        resultsCsv.close();
    }

    /** One QP of one source. */
    static final class Qp {
        final int source;
        final int qpn;
        final ResultLog recorded;
        final ResultLog replayed;
        boolean started;
        long lineRateBitsPerSec;
        long rateBitsPerSec;
        long minRateBitsPerSec;
        long windowBytes;
        long events;
        long results;
        long cycles;
        long maxCycles;
        long firstEventPs = -1;
        long lastEventPs = -1;

        Qp(final int source, final int qpn, final boolean verify) {
            this.source = source;
            this.qpn = qpn;
            this.recorded = verify ? new ResultLog() : null;
            this.replayed = verify ? new ResultLog() : null;
        }

        /** Marks the flow started at line rate with no window (window 0 = unlimited). */
        void start(final long lineRate) {
            started = true;
            lineRateBitsPerSec = lineRate;
            rateBitsPerSec = lineRate;
            minRateBitsPerSec = lineRate;
            windowBytes = PccResult.WINDOW_UNLIMITED;
        }
    }

    /** A QP's results, field by field in growable primitive arrays. */
    private static final class ResultLog {
        int size;
        long[] effectivePs = new long[16];
        int[] rate = new int[16];
        long[] windowBytes = new long[16];
        boolean[] rttProbe = new boolean[16];
        int[] timerNs = new int[16];
        int[] fastStart = new int[16];
        long[] cycles = new long[16];

        void add(final long eff, final int r, final long w, final boolean probe, final int timer, final int fs,
                 final long cyc) {
            if (size == effectivePs.length) {
                final int n = size * 2;
                effectivePs = Arrays.copyOf(effectivePs, n);
                rate = Arrays.copyOf(rate, n);
                windowBytes = Arrays.copyOf(windowBytes, n);
                rttProbe = Arrays.copyOf(rttProbe, n);
                timerNs = Arrays.copyOf(timerNs, n);
                fastStart = Arrays.copyOf(fastStart, n);
                cycles = Arrays.copyOf(cycles, n);
            }
            effectivePs[size] = eff;
            rate[size] = r;
            windowBytes[size] = w;
            rttProbe[size] = probe;
            timerNs[size] = timer;
            fastStart[size] = fs;
            cycles[size] = cyc;
            size++;
        }

        long field(final int f, final int i) {
            return switch (f) {
                case 0 -> effectivePs[i];
                case 1 -> rate[i];
                case 2 -> windowBytes[i];
                case 3 -> rttProbe[i] ? 1 : 0;
                case 4 -> timerNs[i];
                case 5 -> fastStart[i];
                default -> cycles[i];
            };
        }

        String text(final int f, final int i, final long lineRateBitsPerSec) {
            if (f == 0) {
                return TraceText.ns(effectivePs[i]);
            }
            if (f == 1 && rate[i] != PccResult.RATE_UNCHANGED && lineRateBitsPerSec > 0) {
                return rate[i] + String.format(Locale.ROOT, " (%.3f Gb/s)",
                    FixedPoint.rateToBitsPerSec(rate[i], lineRateBitsPerSec) / 1e9);
            }
            return Long.toString(field(f, i));
        }
    }
}
