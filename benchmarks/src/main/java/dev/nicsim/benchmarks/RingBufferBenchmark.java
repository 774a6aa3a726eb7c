package dev.nicsim.benchmarks;

import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The raw Agrona {@link OneToOneRingBuffer} as the emulator uses it: records of a 64-byte PCC
 * event plus an 8-byte arrival time (80 bytes with the header) in a ring sized for 256 of them,
 * as one emulated core's ring with the default capacity.
 * <ul>
 *   <li>{@code offerPoll}: one thread writes a record (claim, copy, commit) and reads it back,
 *       average ns per record;</li>
 *   <li>{@code spscThroughput}: this thread offers (spinning while the ring is full) while one
 *       consumer thread (an {@link AgentRunner} with a busy-spin idle strategy) reads and touches
 *       each record: records per second, the topology of {@code EmulatorThroughputBenchmark}
 *       with a trivial consumer, the emulator's upper bound.</li>
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar RingBufferBenchmark -prof gc}
 */
public class RingBufferBenchmark extends NicsimBenchmark {
    private static final int MSG = 1;
    private static final int PAYLOAD = 72;
    private static final int RING_BYTES = BitUtil.findNextPositivePowerOfTwo(256 * 80 + 160);

    /** Creates the benchmark (JMH instantiates it). */
    public RingBufferBenchmark() {
    }

    private static OneToOneRingBuffer newRing() {
        return new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(RING_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** Counts and touches records read. */
    static final class Reader implements MessageHandler {
        long sum;

        @Override
        public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length) {
            sum += buffer.getInt(index + 4) + buffer.getLong(index + 64);
        }
    }

    /** A ring, a record to copy in, and a reader, all on one thread. */
    @State(Scope.Thread)
    public static class SingleThread {
        final OneToOneRingBuffer ring = newRing();
        final UnsafeBuffer record = new UnsafeBuffer(new byte[64]);
        final Reader reader = new Reader();
        long n;

        /** Creates the state. */
        public SingleThread() {
        }
    }

    /** A ring whose consumer runs on its own thread for the whole trial. */
    @State(Scope.Thread)
    public static class WithConsumer {
        final OneToOneRingBuffer ring = newRing();
        final UnsafeBuffer record = new UnsafeBuffer(new byte[64]);
        final Reader reader = new Reader();
        AgentRunner runner;
        long n;

        /** Creates the state. */
        public WithConsumer() {
        }

        /** Starts the consumer thread. */
        @Setup(Level.Trial)
        public void start() {
            final Agent agent = new Agent() {
                @Override
                public int doWork() {
                    return ring.read(reader, 256);
                }

                @Override
                public String roleName() {
                    return "ring-consumer";
                }
            };
            runner = new AgentRunner(new BusySpinIdleStrategy(), Throwable::printStackTrace, null, agent);
            AgentRunner.startOnThread(runner);
        }

        /** Stops the consumer thread. */
        @TearDown(Level.Trial)
        public void stop() {
            runner.close();
        }
    }

    private static void write(final OneToOneRingBuffer ring, final UnsafeBuffer record, final long n) {
        int at;
        while ((at = ring.tryClaim(MSG, PAYLOAD)) < 0) {
            Thread.onSpinWait();
        }
        final AtomicBuffer b = ring.buffer();
        b.putBytes(at, record, 0, 64);
        b.putLong(at + 64, n);
        ring.commit(at);
    }

    /**
     * Writes one record and reads it back on the same thread.
     *
     * @param s state
     * @return records read so far, touched (consumed)
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long offerPoll(final SingleThread s) {
        write(s.ring, s.record, ++s.n);
        s.ring.read(s.reader); // not limited to 1: a read that meets the wrap padding returns 0 records
        return s.reader.sum;
    }

    /**
     * Offers one record to the consumer thread, waiting while the ring is full.
     *
     * @param s state
     * @return records offered (consumed)
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long spscThroughput(final WithConsumer s) {
        write(s.ring, s.record, ++s.n);
        return s.n;
    }
}
