package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEventType;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Handler cost of DCTCP (the DCTCP draft §3.3),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}); one op is one handler call, with 1/256 of the round's context restore (what one op includes:
 * {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DctcpHandlerBenchmark -prof gc}
 */
public class DctcpHandlerBenchmark extends HandlerBenchmark {
    /** Creates the benchmark (JMH instantiates it). */
    public DctcpHandlerBenchmark() {
        super("dctcp", HandlerFixture.Timers.SCRIPTED);
    }

    /**
     * TX burst: last PSN sent.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long tx() {
        return round(PccEventType.TX_BURST);
    }

    /**
     * ACK: alpha estimator over observation windows, cwnd reduction once per window or growth (slow start / ABC).
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long ack() {
        return round(PccEventType.ACK);
    }

    /**
     * NACK: loss halving once per window; RNR ignored.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long nack() {
        return round(PccEventType.NACK);
    }
}
