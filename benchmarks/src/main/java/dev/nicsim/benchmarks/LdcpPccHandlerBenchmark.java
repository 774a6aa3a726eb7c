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
 * Handler cost of LDCP, PCC rate form (the LDCP draft §3.2),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}); one op is one handler call, with 1/256 of the round's context restore (what one op includes:
 * {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar LdcpPccHandlerBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LdcpPccHandlerBenchmark extends NicsimBenchmark {
    private HandlerFixture fixture;

    /** Creates the benchmark (JMH instantiates it). */
    public LdcpPccHandlerBenchmark() {
    }

    /** Builds the (context, event) pools. */
    @Setup(Level.Trial)
    public void setup() {
        fixture = new HandlerFixture("ldcp-pcc");
    }

    /**
     * CNP: W = max(min, W - beta), rate = W x MTU / RTT.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long cnp() {
        return fixture.runRound(PccEventType.CNP);
    }

    /**
     * RTT response: RTT sample, W += alpha capped at the line window, rate, next probe and timeout.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long rtt() {
        return fixture.runRound(PccEventType.RTT_RESPONSE);
    }

    /**
     * Timer: probe timeout check, a new probe when it expired.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long timer() {
        return fixture.runRound(PccEventType.TIMER);
    }
}
