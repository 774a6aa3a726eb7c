package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventLayout;
import dev.nicsim.pcc.PccEventType;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * The PCC event record ({@link PccEventLayout}, 64 bytes) through its flyweight: encoding an ACK
 * as the NIC does, decoding every field as a handler might, merging a later event into a waiting
 * one as the emulator's coalescing does, and copying a 48-byte flow context (the overhead inside
 * every {@code *HandlerBenchmark} call). Average ns per operation; 0 B/op with {@code -prof gc}.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar PccEventCodecBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PccEventCodecBenchmark extends NicsimBenchmark {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]);
    private final PccEvent event = new PccEvent().wrap(buffer, 0);
    private final PccEvent waiting = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
    private final PccEvent later = new PccEvent().wrap(new UnsafeBuffer(new byte[PccEventLayout.RECORD_LENGTH]), 0);
    private final UnsafeBuffer contexts = new UnsafeBuffer(new byte[256 * 48]);
    private final UnsafeBuffer context = new UnsafeBuffer(new byte[48]);
    private int i;

    /** Creates the benchmark (JMH instantiates it). */
    public PccEventCodecBenchmark() {
    }

    /** Prepares the records to decode and merge. */
    @Setup(Level.Trial)
    public void setup() {
        event.reset(PccEventType.ACK, 0, 77, 1000, 123_456).flags(PccEventLayout.FLAG_ECE).rtt(111_000, 0, 0);
        waiting.reset(PccEventType.TX_BURST, 0, 77, 1, 1).tx(4096, 4);
        later.reset(PccEventType.TX_BURST, 0, 77, 5, 2).tx(4096, 4);
    }

    /**
     * Encodes an ACK: type, subtype, flow, sn, timestamp, flags, first sn and the echoed time.
     *
     * @return the counter used (consumed)
     */
    @Benchmark
    public int encode() {
        final int n = ++i;
        event.reset(PccEventType.ACK, PccEventType.SUBTYPE_NONE, 77, n, n * 10)
            .flags(PccEventLayout.FLAG_ECE).firstSn(n - 3).rtt(n * 10 - 9_000, 0, 0);
        return n;
    }

    /**
     * Decodes every field of the record.
     *
     * @return a digest of the fields (consumed)
     */
    @Benchmark
    public long decode() {
        final PccEvent e = event;
        return e.type() + e.subtype() + e.port() + e.flags() + e.flowId() + (long) e.sn() + e.timestampNs()
            + e.firstTimestampNs() + e.firstSn() + e.numCoalesced() + e.txBytes() + e.txPackets()
            + e.rttRequestSendNs() + e.rttRequestReceiveNs() + e.rttResponseSendNs();
    }

    /**
     * Merges a later TX burst into a waiting one ({@link PccEvent#coalesce}).
     *
     * @return the merged count (consumed)
     */
    @Benchmark
    public int coalesce() {
        return waiting.coalesce(later).numCoalesced();
    }

    /**
     * Copies one of 256 48-byte flow contexts into the working context.
     *
     * @return the first word (consumed)
     */
    @Benchmark
    public int contextRestore48() {
        final int n = (++i) & 255;
        context.putBytes(0, contexts, n * 48, 48);
        return context.getInt(0);
    }
}
