package dev.nicsim.microcode;

import dev.nicsim.pcc.PccAlgorithm;

/**
 * An algorithm whose handler cost is measured, not declared: firmware executed instruction by
 * instruction ({@code firmware.FirmwareAlgorithm}). The uNIC emulator tells it,
 * before each {@link #onEvent}, which hardware thread runs the event and what the flow context's
 * first access costs (the context-cache model's hit or miss latency), runs the handler when the
 * event is dispatched to a thread, and charges the cycles it reports instead of
 * {@link PccAlgorithm#handlerCycles(int)} (the {@code handler_cycles} table is unused).
 *
 * <p>Thread-safety: as {@link PccAlgorithm}: one driving thread.
 */
public interface MeasuredPccAlgorithm extends PccAlgorithm {

    /**
     * Sets what the next {@link #onEvent} call's context accesses cost and who runs it.
     *
     * @param hardwareThread      the hardware thread (0 .. threads per core - 1) that runs it
     * @param contextExtraCycles  extra cycles of the handler's first load from the flow context
     *                            (the context-cache model: hit or miss latency), at least 0; later
     *                            loads of the same event cost nothing extra (the context is local)
     */
    void prepare(int hardwareThread, int contextExtraCycles);

    /**
     * Cycles the last {@link #onEvent} (or {@link #initFlow}) took on the core, from the first
     * instruction to the completion signal, memory stalls included; for an abandoned handler
     * (instruction budget exceeded, trap) the cycles it ran before it was stopped.
     *
     * @return cycles, at least 0
     */
    long lastHandlerCycles();

    /**
     * When the last {@link #onEvent} first loaded from its flow context.
     *
     * @return cycles from the handler's start to the issue of its first context load, or -1 when
     *         it did not read the context
     */
    long lastContextAccessCycle();
}
