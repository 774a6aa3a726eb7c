package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEventType;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Handler cost of the DCQCN reaction point (the RoCE ECN/DCQCN article §7, Mellanox defaults),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}, TIMER events when the handler armed them: {@link HandlerFixture.Timers#ARMED}); one op
 * is one handler call, with 1/256 of the round's context restore (what one op includes: {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DcqcnHandlerBenchmark -prof gc}
 */
public class DcqcnHandlerBenchmark extends HandlerBenchmark {
    /** Creates the benchmark (JMH instantiates it). */
    public DcqcnHandlerBenchmark() {
        super("dcqcn", HandlerFixture.Timers.ARMED);
    }

    /**
     * TX burst: the due test (nothing is due: the armed timer ran it), byte counter and the increase
     * steps it triggers, timer, rate.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long tx() {
        return round(PccEventType.TX_BURST);
    }

    /**
     * CNP: alpha catch-up, rate-decrease boundary, timer, rate (first-CNP start, once per flow, not in the pool).
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long cnp() {
        return round(PccEventType.CNP);
    }

    /**
     * Timer at the deadline the handler armed: every op runs it, a rate decrease at the boundary (with
     * the alpha catch-up) or a timer increase step (fast recovery, additive, hyper), then timer and rate.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long timer() {
        return round(PccEventType.TIMER);
    }
}
