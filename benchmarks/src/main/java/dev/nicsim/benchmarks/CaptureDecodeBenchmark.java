package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccEvent;
import dev.nicsim.traces.CaptureDecoder;
import dev.nicsim.traces.CaptureException;
import dev.nicsim.traces.PcapWriter;
import dev.nicsim.traces.PccEventDeriver;
import dev.nicsim.traces.PccEventSink;
import dev.nicsim.traces.RocePacket;
import dev.nicsim.traces.RocePacketHandler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;

/**
 * Capture decoding throughput in packets per second (traces module): an in-memory pcap of
 * {@value #PACKETS} RoCEv2 frames through {@link CaptureDecoder} (pcap framing, Ethernet/802.1Q,
 * IPv4 with header checksum, UDP 4791, BTH, RETH/AETH, ICRC check), and the same followed by
 * {@link PccEventDeriver} (the PCC event stream of {@code nicsim trace import} and
 * {@code nicsim replay CAPTURE}). The capture mimics an incast seen at the receiver: 8 requester QPs
 * round-robin sending RDMA WRITE Middle packets of {@code payloadBytes}, an ACK for every 4 data
 * packets, a CNP every 500 frames; the ICRC covers the payload, so larger payloads cost more per
 * packet. Reports packets/s (one JMH operation = one packet); the decode path allocates nothing
 * per packet ({@code -prof gc} shows the per-invocation set-up only).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar CaptureDecodeBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CaptureDecodeBenchmark extends NicsimBenchmark {
    /** Frames in the capture (one JMH operation each). */
    public static final int PACKETS = 10_000;
    private static final int QPS = 8;

    /** Payload of each data packet, bytes (the ICRC is computed over it). */
    @Param({"64", "1024"})
    public int payloadBytes;

    private byte[] capture;
    private final CaptureDecoder decoder = new CaptureDecoder();
    private final Counting counting = new Counting();
    private final Sink sink = new Sink();

    /** Counts decoded packets so the JIT cannot drop the work. */
    static final class Counting implements RocePacketHandler {
        long packets;
        long psnSum;

        @Override
        public void onPacket(final RocePacket packet) {
            packets++;
            psnSum += packet.psn;
        }
    }

    /** Counts derived events. */
    static final class Sink implements PccEventSink {
        long events;

        @Override
        public void onEvent(final PccEvent event, final long timePs) {
            events++;
        }
    }

    /** Creates the benchmark (JMH instantiates it). */
    public CaptureDecodeBenchmark() {
    }

    /** Writes the capture with the traces module's pcap writer (valid ICRCs). */
    @Setup(Level.Trial)
    public void setup() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(PACKETS * (payloadBytes + 100));
        final RocePacket p = new RocePacket();
        final int[] psn = new int[QPS];
        final int[] dataSinceAck = new int[QPS];
        try (PcapWriter w = new PcapWriter(bytes, 0)) {
            int qp = 0;
            for (int i = 0; i < PACKETS; i++) {
                final long timePs = i * 100_000L; // one frame every 100 ns
                p.clear();
                p.dstMac = 0x0200_0000_0004L;
                p.srcMac = 0x0201_0000_0004L;
                p.vlanId = 0;
                p.pcp = 3;
                p.pkey = 0xFFFF;
                p.udpSrcPort = 49152 + qp;
                if (i % 500 == 499) {
                    // CNP from the receiver to requester qp
                    p.srcIpv4(0x0A00_0005).dstIpv4(0x0A00_0001 + qp);
                    p.dscp = 48;
                    p.ecn = 1;
                    p.opcode = 0x81;
                    p.becn = true;
                    p.destQp = 0x100 + qp;
                } else if (dataSinceAck[qp] == 4) {
                    // ACK from the receiver to requester qp for its last packet
                    dataSinceAck[qp] = 0;
                    p.srcIpv4(0x0A00_0005).dstIpv4(0x0A00_0001 + qp);
                    p.dscp = 26;
                    p.ecn = 2;
                    p.opcode = 0x11;
                    p.destQp = 0x100 + qp;
                    p.psn = (psn[qp] - 1) & 0xFF_FFFF;
                    p.aethSyndrome = 0x1F;
                    qp = (qp + 1) % QPS;
                } else {
                    // WRITE Middle from requester qp to the receiver
                    p.srcIpv4(0x0A00_0001 + qp).dstIpv4(0x0A00_0005);
                    p.dscp = 26;
                    p.ecn = i % 7 == 0 ? 3 : 2;
                    p.opcode = 0x07;
                    p.destQp = 0x200 + qp;
                    p.psn = psn[qp];
                    p.payloadBytes = payloadBytes;
                    psn[qp] = (psn[qp] + 1) & 0xFF_FFFF;
                    dataSinceAck[qp]++;
                }
                w.writeRoceV2(p, timePs);
            }
        }
        capture = bytes.toByteArray();
    }

    /**
     * Decodes every packet of the capture.
     *
     * @return packets decoded so far (consumed by JMH)
     * @throws CaptureException never for this capture
     */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long decode() throws CaptureException {
        decoder.decode("bench", capture, counting);
        return counting.packets + counting.psnSum;
    }

    /**
     * Decodes every packet and derives the PCC events a requester NIC would see (a new deriver per
     * capture, as {@code nicsim trace import} makes one per file).
     *
     * @return events derived so far (consumed by JMH)
     * @throws CaptureException never for this capture
     */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long decodeAndDerive() throws CaptureException {
        final PccEventDeriver deriver = new PccEventDeriver(sink);
        decoder.decode("bench", capture, deriver);
        deriver.finish();
        return sink.events;
    }
}
