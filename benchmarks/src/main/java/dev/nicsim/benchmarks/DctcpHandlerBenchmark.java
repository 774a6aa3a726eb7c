package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEventType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Handler cost of DCTCP (spec 002 §3.3),
 * per event type it handles: average ns per event, from states the flow really was in
 * ({@link HandlerFixture}); each call includes restoring the flow's 48-byte context.
 * Target (issue 3): at most 10 ns/event and 0 B/op (run with {@code -prof gc}).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar DctcpHandlerBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens", "java.base/java.io=ALL-UNNAMED",
    "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens", "java.base/java.util=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
    "-Dagrona.disable.bounds.checks=false"})
public class DctcpHandlerBenchmark {
    private HandlerFixture fixture;

    /** Creates the benchmark (JMH instantiates it). */
    public DctcpHandlerBenchmark() {
    }

    /** Builds the (context, event) pools. */
    @Setup(Level.Trial)
    public void setup() {
        fixture = new HandlerFixture("dctcp");
    }

    /**
     * TX burst: last PSN sent.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long tx() {
        return fixture.run(PccEventType.TX_BURST);
    }

    /**
     * ACK: alpha estimator over observation windows, cwnd reduction once per window or growth (slow start / ABC).
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long ack() {
        return fixture.run(PccEventType.ACK);
    }

    /**
     * NACK: loss halving once per window; RNR ignored.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    public long nack() {
        return fixture.run(PccEventType.NACK);
    }
}
