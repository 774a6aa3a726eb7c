package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEventType;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Handler cost of LDCP, PCC rate form (the LDCP draft §3.2),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}); one op is one handler call, with 1/256 of the round's context restore (what one op includes:
 * {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar LdcpPccHandlerBenchmark -prof gc}
 */
public class LdcpPccHandlerBenchmark extends HandlerBenchmark {
    /** Creates the benchmark (JMH instantiates it). */
    public LdcpPccHandlerBenchmark() {
        super("ldcp-pcc", HandlerFixture.Timers.SCRIPTED);
    }

    /**
     * CNP: W = max(min, W - beta), rate = W x MTU / RTT.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long cnp() {
        return round(PccEventType.CNP);
    }

    /**
     * RTT response: RTT sample, W += alpha capped at the line window, rate, next probe and timeout.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long rtt() {
        return round(PccEventType.RTT_RESPONSE);
    }

    /**
     * Timer: probe timeout check, a new probe when it expired.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long timer() {
        return round(PccEventType.TIMER);
    }
}
