package dev.nicsim.benchmarks;

import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * The uNIC emulator free-running end to end: one producer (this thread) encodes PCC events and
 * offers them, one emulated core on its own agent thread (busy spin) takes them off its Agrona
 * ring into its pending table, looks up the flow's context and cache line, runs the algorithm
 * and hands the result to a sink. Events per second accepted (the producer waits while the ring
 * is full, so this is what the core sustains). Compare with
 * {@code RingBufferBenchmark.spscThroughput}, the same topology with a trivial consumer.
 *
 * <p>Stream: 1,024 flows in turn (more than the 256-event ring holds, so nothing merges), one
 * event in 16 a CNP, one in 32 a TIMER, the rest 4-packet TX bursts, timestamps 10 ns apart.
 * Target: at least 20 M events/s and at least half the raw ring's rate.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar EmulatorThroughputBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EmulatorThroughputBenchmark extends NicsimBenchmark {
    private static final int FLOWS = 1024;

    /** Algorithm every flow runs. */
    @Param({"dcqcn"})
    public String algorithm;

    private UnicEmulator emulator;
    private final PccEvent event = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
    private final Sink sink = new Sink();
    private long n;
    private long refused;

    /** Counts results on the core's thread. */
    static final class Sink implements CcResultSink {
        long results;
        long rateSum;

        @Override
        public void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
            results++;
            rateSum += result.rate();
        }
    }

    /** Creates the benchmark (JMH instantiates it). */
    public EmulatorThroughputBenchmark() {
    }

    /** One core, default configuration otherwise; flows started; the core's agent thread started. */
    @Setup(Level.Trial)
    public void setup() {
        final PccAlgorithmProvider p = PccAlgorithms.byName(algorithm);
        emulator = new UnicEmulator(new EmulatorConfig().cores(1), () -> p.create(p.defaults()), 0, sink);
        for (int f = 1; f <= FLOWS; f++) {
            emulator.startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
        }
        emulator.startFreeRunning(1, BusySpinIdleStrategy::new);
    }

    /** Stops the agent (handling what is left) and prints what the core did. */
    @TearDown(Level.Trial)
    public void tearDown() {
        emulator.stopFreeRunning();
        long handled = 0;
        long merged = 0;
        for (int t = 0; t < PccEventType.COUNT; t++) {
            handled += emulator.handled(t);
            merged += emulator.coalesced(t);
        }
        System.out.println("\nemulator: offered " + n + ", handled " + handled + ", coalesced " + merged
            + ", producer waits (counted as drops) " + refused + ", results " + sink.results);
    }

    /**
     * Encodes and offers one event, waiting while the core's ring is full.
     *
     * @return events offered (consumed)
     */
    @Benchmark
    public long offer() {
        final long i = ++n;
        final int type = (i & 15) == 0 ? PccEventType.CNP : (i & 31) == 1 ? PccEventType.TIMER : PccEventType.TX_BURST;
        event.reset(type, 0, 1 + (int) (i & (FLOWS - 1)), (int) i, (int) (i * 10)).tx(4096, 4);
        while (!emulator.offer(event, 0)) {
            refused++;
            Thread.onSpinWait();
        }
        return i;
    }
}
