package dev.nicsim.pcc;

/**
 * A congestion-control algorithm as NIC microcode runs it: one handler call per event, all per-flow
 * state in the flow's context words, shared read-only parameters, and counters.
 *
 * <p>Implementations must not allocate in {@link #initFlow} or {@link #onEvent}, must keep no
 * per-flow state outside the context, and must be deterministic (no clocks, no randomness beyond
 * what the context holds). One instance is driven by one thread at a time.
 */
public interface PccAlgorithm {

    /**
     * Number of 32-bit context words the algorithm needs per flow.
     *
     * @return words, 1..{@link PccContext#DEFAULT_WORDS} unless the processor is configured larger
     */
    int contextWords();

    /**
     * Called once when a flow starts, on a zeroed context; sets the flow's initial rate, window and
     * fast-start budget.
     *
     * @param context    the flow's context, zeroed
     * @param nowNs      current time, ns, 32-bit wrapping
     * @param attributes line rate, MTU, base RTT, slot, overload flag
     * @param result     reset result to fill
     */
    void initFlow(PccContext context, int nowNs, PccAttributes attributes, PccResult result);

    /**
     * Handles one event for a flow.
     *
     * @param context    the flow's context
     * @param event      the event (possibly coalesced: {@link PccEvent#numCoalesced()} &gt; 1)
     * @param attributes line rate, MTU, base RTT, slot, overload flag
     * @param result     reset result to fill with what changes
     */
    void onEvent(PccContext context, PccEvent event, PccAttributes attributes, PccResult result);

    /**
     * Estimated handler cost of an event type, in emulated processor cycles: an estimate of the
     * microcode length of the handler, used by the uNIC emulator until measured on an
     * instruction-set simulator.
     *
     * @param eventType event type ({@link PccEventType})
     * @return cycles, non-negative
     */
    default int handlerCycles(final int eventType) {
        return 100;
    }

    /**
     * The algorithm's counters.
     *
     * @return counters allocated when the algorithm was created
     */
    PccCounters counters();
}
