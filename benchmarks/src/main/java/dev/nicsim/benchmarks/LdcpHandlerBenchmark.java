package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEventType;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Handler cost of LDCP, uNIC window form (the LDCP draft §2.2, §2.3, §3.1),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}); one op is one handler call, with 1/256 of the round's context restore (what one op includes:
 * {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar LdcpHandlerBenchmark -prof gc}
 */
public class LdcpHandlerBenchmark extends HandlerBenchmark {
    /** Creates the benchmark (JMH instantiates it). */
    public LdcpHandlerBenchmark() {
        super("ldcp", HandlerFixture.Timers.SCRIPTED);
    }

    /**
     * ACK: PAWA window update (Eq. 1, 2; below one packet the gamma/eta rule and the pacing rate), RTT sample.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long ack() {
        return round(PccEventType.ACK);
    }

    /**
     * NACK: fast-start exit on loss, or one marked step in the stable stage; RNR ignored.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long nack() {
        return round(PccEventType.NACK);
    }

    /**
     * RTT response: RTT sample and EWMA.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long rtt() {
        return round(PccEventType.RTT_RESPONSE);
    }
}
