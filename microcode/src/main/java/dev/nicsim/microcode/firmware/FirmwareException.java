package dev.nicsim.microcode.firmware;

/**
 * Bad firmware: the file is not a RISC-V ELF, lacks {@code doca_pcc_dev_user_algo} or a runtime
 * entry, or its {@code doca_pcc_dev_user_init} faults or declares tables outside the limits. The
 * message is one line naming the file and what is wrong; command-line tools report it with exit
 * code 2.
 *
 * <p>Thread-safety: immutable.
 */
public final class FirmwareException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message one line: file and what is wrong
     */
    public FirmwareException(final String message) {
        super(message);
    }
}
