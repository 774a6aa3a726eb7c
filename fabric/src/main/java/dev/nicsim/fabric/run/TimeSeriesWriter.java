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
    private final CSVPrinter queues;
    private final CSVPrinter rates;
    private final CSVPrinter throughput;
    private IOException error;

    /**
     * Opens the three files in a directory, replacing existing ones.
     *
     * @param dir output directory, created if missing
     * @throws IOException if a file cannot be created
     */
    public TimeSeriesWriter(final Path dir) throws IOException {
        Files.createDirectories(dir);
        queues = open(dir.resolve("queues.csv"), "time_ns", "switch", "port", "priority", "depth_bytes");
        rates = open(dir.resolve("rates.csv"), "time_ns", "qpn", "rate_bits_per_sec", "window_bytes");
        throughput = open(dir.resolve(THROUGHPUT_FILE), "time_ns", "flow_id", "bits_per_sec");
    }

    /** Name of the per-flow throughput file. */
    public static final String THROUGHPUT_FILE = "throughput.csv";

    static CSVPrinter open(final Path file, final String... header) throws IOException {
        final BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        return new CSVPrinter(w, CSVFormat.DEFAULT.builder().setHeader(header).setRecordSeparator('\n').get());
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
        try {
            queues.close(true);
        } finally {
            try {
                rates.close(true);
            } finally {
                throughput.close(true);
            }
        }
        checkError();
    }
}
