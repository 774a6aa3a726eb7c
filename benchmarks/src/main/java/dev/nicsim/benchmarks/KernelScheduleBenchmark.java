package dev.nicsim.benchmarks;

import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.Simulator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Cost of one event through the discrete-event kernel in steady state: the kernel holding
 * {@code pending} events, each handled event scheduling one successor at a pseudo-random later
 * time (the hold model of event-set benchmarks). Reports ns per event; run with {@code -prof gc}
 * to see that it allocates 0 B/op.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar KernelScheduleBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KernelScheduleBenchmark extends NicsimBenchmark implements EventHandler {
    /** Events kept pending (a fabric of a few hundred ports keeps thousands). */
    @Param({"1000", "100000"})
    public int pending;

    private Simulator sim;
    private long lcg = 12345;

    /** Creates the benchmark (JMH instantiates it). */
    public KernelScheduleBenchmark() {
    }

    /** Schedules the pending events. */
    @Setup(Level.Iteration)
    public void setup() {
        sim = new Simulator();
        for (int i = 0; i < pending; i++) {
            sim.schedule(next(), this, 0, 0, null);
        }
    }

    private long next() {
        lcg = lcg * 6364136223846793005L + 1442695040888963407L;
        return sim.nowPs() + ((lcg >>> 33) & 0xFFFFF);
    }

    @Override
    public void onEvent(final int kind, final long arg, final Object ref) {
        sim.schedule(next(), this, kind, arg, ref);
    }

    /**
     * Handles one event (which schedules its successor).
     *
     * @return events handled so far (consumed by JMH)
     */
    @Benchmark
    public long popAndSchedule() {
        sim.runUntil(sim.nextEventTimePs());
        return sim.eventsProcessed();
    }
}
