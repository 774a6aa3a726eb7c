package dev.nicsim.scenario;

/**
 * One flow of a workload: a message of {@code sizeBytes} from one host to another, starting at a
 * given time, carried by its own RC QP pair.
 *
 * @param flowId    index of the flow, 0-based, in start order (explicit {@code flows} workloads: list order)
 * @param src       requester host (the data sender for WRITE and SEND; the READ requester)
 * @param dst       responder host
 * @param sizeBytes message size, bytes, positive
 * @param startPs   start time, ps
 * @param flowClass the flow's class in reports ({@code classes.csv}, the summary): {@link #DEFAULT_CLASS},
 *                  {@code background}/{@code hot} for a hotspot workload, or a {@code flows} entry's label;
 *                  never null
 */
public record FlowSpec(int flowId, int src, int dst, long sizeBytes, long startPs, String flowClass) {
    /** Class of flows whose workload gives none. */
    public static final String DEFAULT_CLASS = "flow";

    /**
     * @throws IllegalArgumentException if {@code flowClass} is null or empty
     */
    public FlowSpec {
        if (flowClass == null || flowClass.isEmpty()) {
            throw new IllegalArgumentException("flowClass must be a non-empty label, got " + flowClass);
        }
    }

    /**
     * A flow of class {@link #DEFAULT_CLASS}.
     *
     * @param flowId    index of the flow
     * @param src       requester host
     * @param dst       responder host
     * @param sizeBytes message size, bytes
     * @param startPs   start time, ps
     */
    public FlowSpec(final int flowId, final int src, final int dst, final long sizeBytes, final long startPs) {
        this(flowId, src, dst, sizeBytes, startPs, DEFAULT_CLASS);
    }
}
