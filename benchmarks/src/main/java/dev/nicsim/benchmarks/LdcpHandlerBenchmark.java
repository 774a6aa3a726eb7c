package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEventType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Handler cost of LDCP, uNIC window form (the LDCP draft §2.2, §2.3, §3.1),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}); one op is one handler call, with 1/256 of the round's context restore (what one op includes:
 * {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar LdcpHandlerBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LdcpHandlerBenchmark extends NicsimBenchmark {
    private HandlerFixture fixture;

    /** Creates the benchmark (JMH instantiates it). */
    public LdcpHandlerBenchmark() {
    }

    /** Builds the (context, event) pools. */
    @Setup(Level.Trial)
    public void setup() {
        fixture = new HandlerFixture("ldcp");
    }

    /**
     * ACK: PAWA window update (Eq. 1, 2; below one packet the gamma/eta rule and the pacing rate), RTT sample.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long ack() {
        return fixture.runRound(PccEventType.ACK);
    }

    /**
     * NACK: fast-start exit on loss, or one marked step in the stable stage; RNR ignored.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long nack() {
        return fixture.runRound(PccEventType.NACK);
    }

    /**
     * RTT response: RTT sample and EWMA.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long rtt() {
        return fixture.runRound(PccEventType.RTT_RESPONSE);
    }
}
