package dev.nicsim.riscv;

/**
 * What lies outside the hart: system calls (when the hart emulates them instead of trapping) and
 * the riscv-tests {@code tohost} location. {@link Machine} implements the Linux-style calls and
 * the {@code tohost} convention; an emulator embedding harts supplies its own.
 *
 * <p>Called on the hart's thread, from inside {@link Hart#run}; the hart's registers and
 * {@link Hart#pc()} are current during the call.
 */
public interface Environment {
    /**
     * An {@code ecall} in system-call mode ({@link Hart#setSystemCalls}); arguments in
     * {@code a0..a5}, number in {@code a7}, result to {@code a0}.
     *
     * @param hart the calling hart
     * @return {@code true} to continue after the ecall, {@code false} to halt the hart (exit)
     */
    boolean ecall(Hart hart);

    /**
     * A store touched the watched 8-byte {@code tohost} location.
     *
     * @param hart  the storing hart
     * @param value the 8 bytes at {@code tohost} after the store
     * @return {@code true} to halt the hart
     */
    boolean toHost(Hart hart, long value);
}
