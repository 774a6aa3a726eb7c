package dev.nicsim.fabric.run;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the sampled time series: {@code queues.csv} ({@code time_ns,switch,port,priority,depth_bytes}),
 * {@code rates.csv} ({@code time_ns,qpn,rate_bits_per_sec,window_bytes}) and {@code throughput.csv}
 * ({@code time_ns,flow_id,bits_per_sec}, see {@link ThroughputSampler}).
 *
 * <p>Thread-safety: not thread-safe; simulation thread only. Write errors are kept and raised by
 * {@link #checkError()} so the packet path never throws checked exceptions.
 */
public final class TimeSeriesWriter implements Closeable {
    private CSVPrinter queues;
    private CSVPrinter rates;
    private CSVPrinter throughput;
    private IOException error;
    /** Scratch for copying pre-formatted rows to a file without a String per row; grows to the longest run of rows. */
    private char[] rowChars = new char[4096];

    /**
     * Opens the three files in a directory, replacing existing ones.
     *
     * @param dir output directory, created if missing
     * @throws IOException if a file cannot be created
     */
    public TimeSeriesWriter(final Path dir) throws IOException {
        open(dir);
    }

    private TimeSeriesWriter() {
    }

    /**
     * A writer that touches nothing on disk until {@link #open(Path)}: a {@link Runner} can be built
     * with it (which checks the scenario against the fabric) before any output is written, so input
     * the build refuses leaves an earlier run's files in place.
     *
     * @return the unopened writer; nothing may be written before {@link #open(Path)}
     */
    public static TimeSeriesWriter unopened() {
        return new TimeSeriesWriter();
    }

    /**
     * Creates the directory and the three files (replacing existing ones) of a writer made by
     * {@link #unopened}; the public constructor calls it itself.
     *
     * @param dir output directory, created if missing
     * @throws IOException if a file cannot be created
     * @throws IllegalStateException if the writer is already open
     */
    public void open(final Path dir) throws IOException {
        if (queues != null) {
            throw new IllegalStateException("time series already open");
        }
        Files.createDirectories(dir);
        queues = open(dir.resolve("queues.csv"), "time_ns", "switch", "port", "priority", "depth_bytes");
        rates = open(dir.resolve("rates.csv"), "time_ns", "qpn", "rate_bits_per_sec", "window_bytes");
        throughput = open(dir.resolve(THROUGHPUT_FILE), "time_ns", "flow_id", "bits_per_sec");
    }

    /** Name of the per-flow throughput file. */
    public static final String THROUGHPUT_FILE = "throughput.csv";

    /** The rows' format: RFC 4180 quoting, {@code \n} after each record. */
    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get();

    static CSVPrinter open(final Path file, final String... header) throws IOException {
        final BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        return new CSVPrinter(w, FORMAT.builder().setHeader(header).get());
    }

    /**
     * A printer of rows in this writer's format into a buffer, without a header, for rows formatted
     * away from the writer (a partition's share of a sample, {@link PartitionSamples}) and copied to
     * a file later by {@link #queueRows}, {@link #rateRows} or {@link #throughputRows}: a row printed
     * here is byte for byte the row {@link #queue}, {@link #rate} or {@link #throughput} would write.
     *
     * @param rows the buffer
     * @return a printer appending to it
     */
    static CSVPrinter rowPrinter(final StringBuilder rows) {
        try {
            return new CSVPrinter(rows, FORMAT);
        } catch (final IOException e) { // a StringBuilder does not throw
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Appends rows formatted by a {@link #rowPrinter} to {@code queues.csv}.
     *
     * @param rows  the buffer
     * @param start first char of the rows
     * @param end   char after the last row
     */
    void queueRows(final StringBuilder rows, final int start, final int end) {
        copy(queues, rows, start, end);
    }

    /**
     * Appends rows formatted by a {@link #rowPrinter} to {@code rates.csv}.
     *
     * @param rows  the buffer
     * @param start first char of the rows
     * @param end   char after the last row
     */
    void rateRows(final StringBuilder rows, final int start, final int end) {
        copy(rates, rows, start, end);
    }

    /**
     * Appends rows formatted by a {@link #rowPrinter} to {@code throughput.csv}.
     *
     * @param rows  the buffer
     * @param start first char of the rows
     * @param end   char after the last row
     */
    void throughputRows(final StringBuilder rows, final int start, final int end) {
        copy(throughput, rows, start, end);
    }

    /** Copies {@code rows[start, end)} to the printer's file, between two of its records. */
    private void copy(final CSVPrinter printer, final StringBuilder rows, final int start, final int end) {
        final int n = end - start;
        if (n <= 0) {
            return;
        }
        if (rowChars.length < n) {
            rowChars = new char[Math.max(n, rowChars.length * 2)];
        }
        rows.getChars(start, end, rowChars, 0);
        try {
            ((java.io.Writer) printer.getOut()).write(rowChars, 0, n);
        } catch (final IOException e) {
            error = e;
        }
    }

    /**
     * One queue sample.
     *
     * @param timeNs     sample time, ns
     * @param switchName switch
     * @param port       egress port
     * @param priority   priority 0..7
     * @param depthBytes queue depth, bytes
     */
    public void queue(final long timeNs, final String switchName, final int port, final int priority, final long depthBytes) {
        try {
            queues.printRecord(timeNs, switchName, port, priority, depthBytes);
        } catch (final IOException e) {
            error = e;
        }
    }

    /**
     * One rate sample.
     *
     * @param timeNs         sample time, ns
     * @param qpn            requester QPN (unique in the run)
     * @param rateBitsPerSec pacing rate, bits/s
     * @param windowBytes    window, bytes (0 = no window)
     */
    public void rate(final long timeNs, final int qpn, final long rateBitsPerSec, final long windowBytes) {
        try {
            rates.printRecord(timeNs, qpn, rateBitsPerSec, windowBytes);
        } catch (final IOException e) {
            error = e;
        }
    }

    /**
     * One throughput sample: a flow's data delivered in the interval ending at {@code timeNs}.
     *
     * @param timeNs        end of the interval, ns
     * @param flowId        flow id (as in {@code flows.csv})
     * @param bitsPerSec    payload bits delivered in the interval divided by its length, bits/s
     */
    public void throughput(final long timeNs, final int flowId, final long bitsPerSec) {
        try {
            throughput.printRecord(timeNs, flowId, bitsPerSec);
        } catch (final IOException e) {
            error = e;
        }
    }

    /**
     * Raises the first write error seen, if any.
     *
     * @throws IOException the error
     */
    public void checkError() throws IOException {
        if (error != null) {
            throw error;
        }
    }

    @Override
    public void close() throws IOException {
        if (queues == null) { // never opened (or its first file failed): nothing to close
            return;
        }
        try {
            queues.close(true);
        } finally {
            try {
                if (rates != null) {
                    rates.close(true);
                }
            } finally {
                if (throughput != null) {
                    throughput.close(true);
                }
            }
        }
        checkError();
    }
}
