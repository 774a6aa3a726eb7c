package dev.nicsim.fabric.workload;

/**
 * One flow of a workload: a message of {@code sizeBytes} from one host to another, starting at a
 * given time, carried by its own RC QP pair.
 *
 * @param flowId    index of the flow, 0-based, in start order
 * @param src       requester host (the data sender for WRITE and SEND; the READ requester)
 * @param dst       responder host
 * @param sizeBytes message size, bytes, positive
 * @param startPs   start time, ps
 */
public record FlowSpec(int flowId, int src, int dst, long sizeBytes, long startPs) {
}
