package dev.nicsim.riscv;

/**
 * An ELF file that {@link ElfLoader} cannot run: not an ELF, not RISC-V, big-endian, no loadable
 * segment, truncated, overlapping or oversized segments. The message is one line that names the
 * file and what is wrong, fit to print as is ({@code nicsim riscv: <message>}); exit status 2.
 *
 * <p>Thread-safety: immutable.
 */
public final class ElfFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message one line: file name and what is wrong
     */
    public ElfFormatException(final String message) {
        super(message);
    }
}
