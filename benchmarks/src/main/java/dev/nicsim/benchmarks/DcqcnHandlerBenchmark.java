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
 * Handler cost of the DCQCN reaction point (the RoCE ECN/DCQCN article §7, Mellanox defaults),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}, TIMER events when the handler armed them: {@link HandlerFixture.Timers#ARMED}); one op
 * is one handler call, with 1/256 of the round's context restore (what one op includes: {@link HandlerFixture}).
 * Target: at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DcqcnHandlerBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DcqcnHandlerBenchmark extends NicsimBenchmark {
    private HandlerFixture fixture;

    /** Creates the benchmark (JMH instantiates it). */
    public DcqcnHandlerBenchmark() {
    }

    /** Builds the (context, event) pools. */
    @Setup(Level.Trial)
    public void setup() {
        fixture = new HandlerFixture("dcqcn", HandlerFixture.Timers.ARMED);
    }

    /**
     * TX burst: the due test (nothing is due: the armed timer ran it), byte counter and the increase
     * steps it triggers, timer, rate.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long tx() {
        return fixture.runRound(PccEventType.TX_BURST);
    }

    /**
     * CNP: alpha catch-up, rate-decrease boundary, timer, rate (first-CNP start, once per flow, not in the pool).
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long cnp() {
        return fixture.runRound(PccEventType.CNP);
    }

    /**
     * Timer at the deadline the handler armed: every op runs it, a rate decrease at the boundary (with
     * the alpha catch-up) or a timer increase step (fast recovery, additive, hyper), then timer and rate.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long timer() {
        return fixture.runRound(PccEventType.TIMER);
    }
}
