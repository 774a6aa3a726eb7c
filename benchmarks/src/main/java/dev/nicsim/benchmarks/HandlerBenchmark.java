package dev.nicsim.benchmarks;

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
 * What the per-algorithm handler benchmarks share, inherited by JMH: average ns per event, one op
 * being one handler call ({@link HandlerFixture#POOL} calls per round, each with 1/256 of the
 * round's context restore: {@link HandlerFixture}), on the (context, event) pools of one
 * algorithm's scripted flow, built once per trial. A subclass names the algorithm and where its
 * TIMER events come from, and has one {@code @Benchmark} per event type the handler handles, each
 * returning {@link #round(int)}.
 *
 * <p>Thread-safety: JMH state of one thread ({@link Scope#Thread}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(HandlerFixture.POOL)
public abstract class HandlerBenchmark extends NicsimBenchmark {
    private final String algorithmName;
    private final HandlerFixture.Timers timers;
    private HandlerFixture fixture;

    /**
     * @param algorithmName built-in algorithm name ({@code ldcp}, {@code ldcp-pcc}, {@code dctcp}, {@code dcqcn})
     * @param timers        where TIMER events come from ({@link HandlerFixture.Timers})
     */
    protected HandlerBenchmark(final String algorithmName, final HandlerFixture.Timers timers) {
        this.algorithmName = algorithmName;
        this.timers = timers;
    }

    /** Builds the (context, event) pools. */
    @Setup(Level.Trial)
    public void setup() {
        fixture = new HandlerFixture(algorithmName, timers);
    }

    /**
     * One round of the handler on one event type's pool ({@link HandlerFixture#runRound}).
     *
     * @param type event type ({@code PccEventType})
     * @return a digest of the results (consumed by JMH)
     */
    protected final long round(final int type) {
        return fixture.runRound(type);
    }
}
