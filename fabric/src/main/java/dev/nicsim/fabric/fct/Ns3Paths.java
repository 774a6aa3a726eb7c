package dev.nicsim.fabric.fct;

import dev.nicsim.fabric.topology.TopologyGraph;
import dev.nicsim.pcc.Units;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Per host pair, the figures {@code third.cc} of the HPCC ns-3 simulator derives from the
 * topology before a run ({@code CalculateRoute}, {@code CalculateRtt}): a breadth-first search
 * from each host through switches gives, along the first shortest path found, the one-way
 * propagation delay (sum of link delays, ns), the transmission delay of one payload (sum over the
 * hops of {@code floor(payload x 8 x 1e9 / rate)} ns) and the bottleneck rate; then
 * {@code rtt = 2 x delay + txDelay} and {@code bdp = rtt x bw / 8e9} bytes. {@code GLOBAL_T 1}
 * gives every flow the largest RTT and BDP of all host pairs. The reference's
 * {@code standalone_fct} of a flow is {@code rtt + total_bytes x 8e9 / bw} with
 * {@code total_bytes = size + packets x header_bytes}.
 *
 * <p>Thread-safety: not thread-safe (caches per destination); one per run.
 */
public final class Ns3Paths {
    private final TopologyGraph graph;
    private final int payloadBytes;
    private final List<List<int[]>> adjacency; // node -> {neighbour, edge index}
    private final long[][] delayNs;   // [dst host][node], -1 unknown
    private final long[][] txDelayNs;
    private final long[][] bw;

    /**
     * @param graph        the fabric
     * @param payloadBytes payload bytes per packet ({@code PACKET_PAYLOAD_SIZE})
     */
    public Ns3Paths(final TopologyGraph graph, final int payloadBytes) {
        this.graph = graph;
        this.payloadBytes = payloadBytes;
        adjacency = new ArrayList<>();
        for (int n = 0; n < graph.nodeCount(); n++) {
            adjacency.add(new ArrayList<>());
        }
        final List<TopologyGraph.Edge> edges = graph.edges();
        for (int e = 0; e < edges.size(); e++) {
            adjacency.get(edges.get(e).a()).add(new int[] {edges.get(e).b(), e});
            adjacency.get(edges.get(e).b()).add(new int[] {edges.get(e).a(), e});
        }
        delayNs = new long[graph.hosts()][];
        txDelayNs = new long[graph.hosts()][];
        bw = new long[graph.hosts()][];
    }

    private void search(final int dst) {
        if (delayNs[dst] != null) {
            return;
        }
        final int n = graph.nodeCount();
        final long[] d = new long[n];
        final long[] tx = new long[n];
        final long[] b = new long[n];
        Arrays.fill(d, -1);
        d[dst] = 0;
        b[dst] = Long.MAX_VALUE;
        final int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        queue[tail++] = dst;
        while (head < tail) {
            final int now = queue[head++];
            for (final int[] nb : adjacency.get(now)) {
                final int next = nb[0];
                if (d[next] >= 0) {
                    continue;
                }
                final TopologyGraph.Edge e = graph.edges().get(nb[1]);
                final long rate = e.link().rateBitsPerSec();
                d[next] = d[now] + e.link().delayPs() / Units.PS_PER_NS;
                tx[next] = tx[now] + payloadBytes * 1_000_000_000L * 8 / rate;
                b[next] = Math.min(b[now], rate);
                if (next >= graph.hosts()) { // only switches forward
                    queue[tail++] = next;
                }
            }
        }
        delayNs[dst] = d;
        txDelayNs[dst] = tx;
        bw[dst] = b;
    }

    /**
     * @param src source host
     * @param dst destination host
     * @return {@code 2 x delay + txDelay}, ns
     * @throws IllegalArgumentException if dst is unreachable from src
     */
    public long rttNs(final int src, final int dst) {
        search(dst);
        if (delayNs[dst][src] < 0) {
            throw new IllegalArgumentException("host " + dst + " unreachable from " + src);
        }
        return 2 * delayNs[dst][src] + txDelayNs[dst][src];
    }

    /**
     * @param src source host
     * @param dst destination host
     * @return the bottleneck rate of the path, bits/s
     */
    public long bottleneckBitsPerSec(final int src, final int dst) {
        search(dst);
        return bw[dst][src];
    }

    /**
     * @param src source host
     * @param dst destination host
     * @return {@code rtt x bw / 8e9}, bytes
     */
    public long bdpBytes(final int src, final int dst) {
        return rttNs(src, dst) * bottleneckBitsPerSec(src, dst) / 1_000_000_000L / 8;
    }

    /** @return the largest RTT over all ordered host pairs, ns ({@code GLOBAL_T 1}'s base RTT) */
    public long maxRttNs() {
        return maxOverPairs(this::rttNs);
    }

    /** @return the largest BDP over all ordered host pairs, bytes ({@code GLOBAL_T 1}'s window) */
    public long maxBdpBytes() {
        return maxOverPairs(this::bdpBytes);
    }

    /** @param perPair a figure of (source, destination) @return its largest value over distinct host pairs, 0 if none */
    private long maxOverPairs(final PairFigure perPair) {
        long max = 0;
        for (int s = 0; s < graph.hosts(); s++) {
            for (int d = 0; d < graph.hosts(); d++) {
                if (s != d) {
                    max = Math.max(max, perPair.apply(s, d));
                }
            }
        }
        return max;
    }

    /** A figure of an ordered host pair. */
    @FunctionalInterface
    private interface PairFigure {
        long apply(int src, int dst);
    }

    /**
     * The reference's {@code standalone_fct}: {@code rtt + total_bytes x 8e9 / bw} (integer
     * division) with {@code total_bytes = size + ceil(size / payload) x headerBytes}.
     *
     * @param src         source host
     * @param dst         destination host
     * @param sizeBytes   flow size, bytes, positive
     * @param headerBytes wire bytes per packet beyond the payload
     * @return ns
     */
    public long standaloneFctNs(final int src, final int dst, final long sizeBytes, final int headerBytes) {
        final long packets = (sizeBytes - 1) / payloadBytes + 1;
        final long total = sizeBytes + packets * headerBytes;
        return rttNs(src, dst) + total * 8_000_000_000L / bottleneckBitsPerSec(src, dst);
    }
}
