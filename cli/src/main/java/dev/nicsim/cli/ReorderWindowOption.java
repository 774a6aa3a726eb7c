package dev.nicsim.cli;

import dev.nicsim.traces.CaptureDecoder;
import picocli.CommandLine.Option;

/**
 * The {@code --reorder-window-ns N} option of every command that reads captures ({@code trace
 * import}, {@code replay}, {@code firmware profile --trace}), as a picocli mixin: how far back, ns,
 * a packet's timestamp may be before the latest one read on its interface and still be put in
 * timestamp order ({@link CaptureDecoder}'s reorder window; docs/traces.md "Timestamp order").
 *
 * <p>Thread-safety: filled by picocli on the command's thread, read there.
 */
public final class ReorderWindowOption {
    @Option(names = "--reorder-window-ns", paramLabel = "N", defaultValue = "1000000",
        description = "Captures: put packets stamped up to N ns before an earlier packet back in timestamp order;"
            + " a step back beyond it is refused (skipped with --lenient); 0..1000000000 (default ${DEFAULT-VALUE})")
    long reorderWindowNs;

    /** Creates the option holder (picocli fills it). */
    public ReorderWindowOption() {
    }

    /**
     * Checks the value, so that a command can refuse it before it writes anything.
     *
     * @throws OptionException naming {@code --reorder-window-ns} when the value is outside
     *                         0 .. {@link CaptureDecoder#MAX_REORDER_WINDOW_NS}
     */
    public void check() {
        decoder(true);
    }

    /**
     * A capture decoder with this window.
     *
     * @param strict true to refuse bad packets, false ({@code --lenient}) to skip and count them
     * @return a new decoder
     * @throws OptionException naming {@code --reorder-window-ns} when the value is outside
     *                         0 .. {@link CaptureDecoder#MAX_REORDER_WINDOW_NS}
     */
    public CaptureDecoder decoder(final boolean strict) {
        try {
            return new CaptureDecoder(strict, reorderWindowNs);
        } catch (final IllegalArgumentException e) {
            throw new OptionException("--reorder-window-ns: expected 0.." + CaptureDecoder.MAX_REORDER_WINDOW_NS
                + " ns, got " + reorderWindowNs);
        }
    }
}
