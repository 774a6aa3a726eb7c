package dev.nicsim.benchmarks;

import dev.nicsim.pcc.CcResultSink;
import dev.nicsim.microcode.emulator.EmulatorConfig;
import dev.nicsim.microcode.emulator.UnicEmulator;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import dev.nicsim.pcc.Units;
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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The uNIC emulator in stepped mode, as the simulator drives it: one PCC ACK event offered to one
 * NIC's emulator, the emulator advanced at the event's arrival and then at each of its
 * transitions until the result is out. One operation is one event, from offer to result, on the
 * benchmark thread only. Time per event (ns).
 *
 * <p>{@code nics} emulators (one per NIC) with {@code cores} emulated cores each (default
 * configuration otherwise: 16 threads per core, 1 GHz, 256-event rings), 16 flows per NIC. Each
 * event goes to a pseudo-random NIC and flow (a fixed 65,536-entry sequence drawn in set-up), and
 * model time moves on 60 ns per event. With 128 NICs of 16 cores (the websearch scenarios'
 * emulators) successive events mostly land on cores whose state the last events did not touch,
 * so the figure includes the cache misses on a core's ring, tables and flow context; with one NIC
 * or one core it is the code path with warm caches. The difference is what the simulator pays per
 * PCC event for the number of emulated cores it holds.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar SteppedEmulatorBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SteppedEmulatorBenchmark extends NicsimBenchmark {
    private static final int FLOWS_PER_NIC = 16;
    private static final int SEQUENCE = 1 << 16;
    private static final long STEP_PS = 60_000;

    /** Emulators (NICs), 1..1024. */
    @Param({"1", "128"})
    public int nics;

    /** Emulated cores per NIC, 1..64. */
    @Param({"1", "16"})
    public int cores;

    /** Algorithm every flow runs. */
    @Param({"dctcp"})
    public String algorithm;

    private UnicEmulator[] emulators;
    private int[] targets;
    private int[] psn;
    private final PccEvent event = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
    private final Sink sink = new Sink();
    private long nowPs;
    private int i;
    private long offered;

    /** Counts the results delivered. */
    static final class Sink implements CcResultSink {
        long results;

        @Override
        public void onResult(final int qpn, final PccResult result, final long effectivePs, final long cycles) {
            results++;
        }
    }

    /** Creates the benchmark (JMH instantiates it). */
    public SteppedEmulatorBenchmark() {
    }

    /**
     * Builds the emulators, starts 16 flows on each (QPNs 1..16; 100 Gb/s, MTU 1,000 B, base RTT
     * 10 us) and draws the (NIC, flow) sequence.
     *
     * @throws IllegalArgumentException if {@code nics} or {@code cores} is out of range
     */
    @Setup(Level.Trial)
    public void setup() {
        if (nics < 1 || nics > 1024 || cores < 1 || cores > 64) {
            throw new IllegalArgumentException("nics must be in 1..1024 and cores in 1..64, got " + nics + " and " + cores);
        }
        final PccAlgorithmProvider p = PccAlgorithms.byName(algorithm);
        emulators = new UnicEmulator[nics];
        for (int n = 0; n < nics; n++) {
            emulators[n] = new UnicEmulator(new EmulatorConfig().cores(cores), () -> p.create(p.defaults()), 0, sink);
            for (int f = 1; f <= FLOWS_PER_NIC; f++) {
                emulators[n].startFlow(f, 0, 100_000_000_000L, 1000, 10_000);
            }
        }
        final SplittableRandom rng = new SplittableRandom(1);
        targets = new int[SEQUENCE];
        for (int k = 0; k < SEQUENCE; k++) {
            targets[k] = rng.nextInt(nics) * FLOWS_PER_NIC + rng.nextInt(FLOWS_PER_NIC);
        }
        psn = new int[nics * FLOWS_PER_NIC];
        nowPs = 1_000_000;
    }

    /** Prints what the emulators did over the trial. */
    @TearDown(Level.Trial)
    public void tearDown() {
        long handled = 0;
        long merged = 0;
        for (final UnicEmulator e : emulators) {
            for (int t = 0; t < PccEventType.COUNT; t++) {
                handled += e.handled(t);
                merged += e.coalesced(t);
            }
        }
        System.out.println("\nstepped emulator: offered " + offered + ", handled " + handled + ", coalesced " + merged
            + ", results " + sink.results);
    }

    /**
     * Offers one ACK and advances that NIC's emulator through the event's transitions up to the
     * next event's time.
     *
     * @return results delivered so far
     */
    @Benchmark
    public long ackToResult() {
        final int target = targets[i++ & (SEQUENCE - 1)];
        final UnicEmulator e = emulators[target / FLOWS_PER_NIC];
        final int flow = 1 + target % FLOWS_PER_NIC;
        final long t = nowPs;
        nowPs = t + STEP_PS;
        event.reset(PccEventType.ACK, 0, flow, ++psn[target], (int) (t / Units.PS_PER_NS));
        e.offer(event, t);
        offered++;
        long next = e.advance(t);
        while (next < nowPs) {
            next = e.advance(next);
        }
        return sink.results;
    }
}
