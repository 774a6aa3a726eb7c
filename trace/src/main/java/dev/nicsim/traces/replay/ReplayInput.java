package dev.nicsim.traces.replay;

import dev.nicsim.riscv.IoReasons;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code nicsim replay} was given: a nicsim trace (a directory) or a packet capture (a file
 * whose magic is pcap's {@code a1b2c3d4}/{@code a1b23c4d} in either byte order, or pcapng's
 * {@code 0a0d0d0a}).
 *
 * <p>Thread-safety: stateless.
 */
public enum ReplayInput {
    /** A trace directory ({@link ChronicleTraceReader}). */
    TRACE,
    /** A pcap or pcapng file ({@link dev.nicsim.traces.CaptureDecoder}). */
    CAPTURE;

    /**
     * Tells a trace from a capture.
     *
     * @param path the argument
     * @return {@link #TRACE} for a directory, {@link #CAPTURE} for a file with a capture magic
     * @throws TraceException if the path does not exist, cannot be read, or is neither
     */
    public static ReplayInput detect(final Path path) {
        if (Files.isDirectory(path)) {
            return TRACE;
        }
        if (!Files.exists(path)) {
            throw new TraceException(path + ": no such file or directory");
        }
        final byte[] magic = new byte[4];
        final int n;
        try (InputStream in = Files.newInputStream(path)) {
            n = in.readNBytes(magic, 0, 4);
        } catch (final IOException e) {
            throw new TraceException(path + ": cannot read: " + IoReasons.why(e));
        }
        if (n == 4 && isCaptureMagic(magic)) {
            return CAPTURE;
        }
        final String name = path.getFileName().toString();
        if (TraceQueues.isQueueFile(name)) {
            throw new TraceException(path + ": a Chronicle Queue file; give the trace directory ("
                + path.toAbsolutePath().getParent() + ")");
        }
        throw new TraceException(path + ": not a capture (pcap or pcapng) or a nicsim trace directory");
    }

    private static boolean isCaptureMagic(final byte[] m) {
        final int le = (m[0] & 0xFF) | (m[1] & 0xFF) << 8 | (m[2] & 0xFF) << 16 | (m[3] & 0xFF) << 24;
        return le == 0xA1B2C3D4 || le == 0xA1B23C4D || le == 0xD4C3B2A1 || le == 0x4D3CB2A1 || le == 0x0A0D0D0A;
    }
}
