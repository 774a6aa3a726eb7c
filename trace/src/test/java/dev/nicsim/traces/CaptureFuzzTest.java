package dev.nicsim.traces;

import dev.nicsim.pcc.PccEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Property: whatever bytes it is given, the reader + decoder + event deriver either finish or throw
 * {@link CaptureException}; nothing else escapes and every run ends (each record or block consumes at
 * least 12 bytes of a finite input). Seeded mutations of captures in every framing (the project's
 * fixtures, and in a second test the real captures beside the repository): random byte
 * flips, truncation at a random length, corruption of record / block length fields and of header
 * length fields (IPv4 total length, UDP length, LRH packet length, GRH payload length) with boundary
 * and random values. Each mutant is decoded strict and lenient, with the event deriver attached.
 * {@code -Dfuzz.iterations=N -Dfuzz.seed=S} (surefire argLine) run a longer or different campaign.
 */
class CaptureFuzzTest {
    private static final int ITERATIONS = Integer.getInteger("fuzz.iterations", 3_000);
    private static final long SEED = Long.getLong("fuzz.seed", 0x5EED_2024_0004L);

    /** The fixtures: Soft-RoCE-like exchange (PcapWriter's nanosecond file), with ARP, IB in ERF, CNP (pcapng). */
    private static List<byte[]> fixtures() {
        return List.of(Fixtures.softroceWriteRead(), Fixtures.softroceWriteReadWithArp(), Fixtures.infinibandErf(),
            Fixtures.cnpPcapng());
    }

    /** The real captures in the same roles; skips (or fails under nicsim.requireShared) when absent. */
    private static List<byte[]> sharedCaptures() {
        final List<byte[]> c = new ArrayList<>();
        for (final String n : new String[]{"softroce-write-read.pcap", "softroce-write-read-with-arp.pcap",
            "infiniband-erf.pcap", "cnp-connectx4lx.pcap"}) {
            c.add(TestPaths.sharedCaptureBytes(n));
        }
        return c;
    }

    /**
     * @param bases four captures: RoCE, RoCE with ARP (little-endian microsecond pcap), IB in ERF (the
     *              same), CNP
     * @return the bases plus re-framings of the second and third and a writer-made mix
     */
    private static List<byte[]> corpus(final List<byte[]> bases) {
        final List<byte[]> c = new ArrayList<>(bases);
        final RawCapture soft = RawCapture.parse(c.get(1));
        final RawCapture ib = RawCapture.parse(c.get(2));
        c.add(soft.toPcap(ByteOrder.BIG_ENDIAN, true));
        c.add(soft.toPcapng(ByteOrder.LITTLE_ENDIAN, 9, RawCapture.Block.EPB));
        c.add(soft.toPcapng(ByteOrder.BIG_ENDIAN, 0x80 | 20, RawCapture.Block.PB));
        c.add(ib.toPcapng(ByteOrder.BIG_ENDIAN, -1, RawCapture.Block.SPB));
        c.add(writtenMix());
        return c;
    }

    /** A writer-made capture with VLAN tags, CE marks, NAKs, CNPs and PFC frames. */
    private static byte[] writtenMix() {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(out, 0)) {
            final RocePacket p = new RocePacket();
            p.srcIpv4(0x0A00_0001).dstIpv4(0x0A00_0002);
            p.pkey = 0xFFFF;
            p.destQp = 0x33;
            final int[] ops = {0x06, 0x07, 0x08, 0x11, 0x0C, 0x10, 0x11, 0x81, 0x0A, 0x11};
            final int[] aeth = {0, 0, 0, 0x1F, 0, 0x1F, 0x60, 0, 0, 0x2E};
            for (int i = 0; i < ops.length; i++) {
                p.opcode = ops[i];
                p.aethSyndrome = aeth[i];
                p.psn = i;
                p.ackReq = (i & 1) == 0;
                p.ecn = i % 4;
                p.vlanId = i % 3 == 0 ? 5 : -1;
                p.payloadBytes = i * 37;
                w.writeRoceV2(p, i * 1_000_000L);
                if (i % 4 == 0) {
                    w.writePfc(i * 1_000_000L + 1, 0x0200_0000_0009L, 1 << (i % 8), new int[]{i, 0, 0, 0, 0, 0, 0, 65535});
                }
            }
        }
        return out.toByteArray();
    }

    private static void corruptInt(final byte[] b, final int at, final SplittableRandom rnd) {
        if (at < 0 || at + 4 > b.length) {
            return;
        }
        final int[] boundary = {0, 1, 3, 4, 11, 12, 15, 16, 27, 28, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x8000_0000, 0xFFFF, 262_144,
            262_145, 16 * 1024 * 1024, 16 * 1024 * 1024 + 4};
        final int v = rnd.nextInt(3) == 0 ? rnd.nextInt() : boundary[rnd.nextInt(boundary.length)];
        final boolean le = rnd.nextBoolean();
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (le ? v >>> (8 * i) : v >>> (24 - 8 * i));
        }
    }

    private static void corruptShort(final byte[] b, final int at, final SplittableRandom rnd) {
        if (at < 0 || at + 2 > b.length) {
            return;
        }
        final int[] boundary = {0, 1, 7, 8, 19, 20, 23, 24, 27, 28, 0x7FF, 0xFFFF};
        final int v = rnd.nextBoolean() ? rnd.nextInt(0x10000) : boundary[rnd.nextInt(boundary.length)];
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    private static byte[] mutate(final byte[] base, final SplittableRandom rnd) {
        byte[] b = base.clone();
        final int n = 1 + rnd.nextInt(6);
        for (int k = 0; k < n; k++) {
            switch (rnd.nextInt(6)) {
                case 0 -> { // byte flips
                    final int flips = 1 + rnd.nextInt(8);
                    for (int i = 0; i < flips; i++) {
                        b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                    }
                }
                case 1 -> b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256); // random byte
                case 2 -> b = Arrays.copyOf(b, rnd.nextInt(b.length + 1));  // truncation
                case 3 -> corruptInt(b, rnd.nextInt(Math.max(1, b.length)) & ~3, rnd); // a length-like word
                case 4 -> corruptInt(b, pcapRecordLengthOffset(b, rnd), rnd);         // a record's caplen/origlen
                default -> corruptShort(b, headerLengthOffset(b, rnd), rnd);           // IP/UDP/LRH/GRH length
            }
            if (b.length == 0) {
                break;
            }
        }
        return b;
    }

    /** Offset of a caplen or origlen field of a random classic-pcap record (walking the LE framing), or -1. */
    private static int pcapRecordLengthOffset(final byte[] b, final SplittableRandom rnd) {
        if (b.length < 24 || (b[0] & 0xFF) != 0xD4) {
            return rnd.nextInt(Math.max(1, b.length));
        }
        final List<Integer> fields = new ArrayList<>();
        int pos = 24;
        while (pos + 16 <= b.length && fields.size() < 200) {
            fields.add(pos + 8);
            fields.add(pos + 12);
            final int cap = (b[pos + 8] & 0xFF) | (b[pos + 9] & 0xFF) << 8 | (b[pos + 10] & 0xFF) << 16 | (b[pos + 11] & 0xFF) << 24;
            if (cap < 0 || cap > 1 << 20) {
                break;
            }
            pos += 16 + cap;
        }
        return fields.isEmpty() ? -1 : fields.get(rnd.nextInt(fields.size()));
    }

    /** A random offset that hits a length field when the frame at the start of a pcap record is Ethernet/IPv4. */
    private static int headerLengthOffset(final byte[] b, final SplittableRandom rnd) {
        // record 1 data starts at 40 in classic pcap; IPv4 total length at +16, UDP length at +38,
        // ERF+LRH packet length at +16+4, GRH payload length (ERF, LNH=3) at +16+8+4
        final int[] rel = {16, 38, 20, 28, 18, 42};
        return 40 + rel[rnd.nextInt(rel.length)] + (rnd.nextBoolean() ? 0 : 16 + 322);
    }

    @Test
    @Timeout(120) // a hang guard only: the loop takes a few seconds
    void mutatedFixturesNeverEscapeAsAnythingButCaptureException() {
        campaign(corpus(fixtures()));
    }

    @Test
    @Timeout(120)
    void mutatedRealCapturesNeverEscapeAsAnythingButCaptureException() {
        campaign(corpus(sharedCaptures()));
    }

    private static void campaign(final List<byte[]> corpus) {
        final SplittableRandom rnd = new SplittableRandom(SEED);
        int failed = 0;
        int finished = 0;
        long events = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            final byte[] mutant = mutate(corpus.get(rnd.nextInt(corpus.size())), rnd);
            for (final boolean strict : new boolean[]{true, false}) {
                final long[] count = {0};
                final PccEventDeriver deriver = new PccEventDeriver((e, t) -> {
                    if (e.type() < 0 || e.type() >= PccEventType.COUNT) {
                        fail("event type " + e.type());
                    }
                    count[0]++;
                }, 1 + rnd.nextInt(100_000), rnd.nextInt(2_000_000), rnd.nextBoolean());
                try {
                    new CaptureDecoder(strict).decode("mutant-" + i, mutant, deriver);
                    finished++;
                } catch (final CaptureException e) {
                    failed++;
                    assertTrue(e.getMessage().startsWith("mutant-" + i + ": "), e.getMessage());
                    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
                } catch (final RuntimeException | Error e) {
                    throw new AssertionError("mutant " + i + " (strict=" + strict + ", " + mutant.length
                        + " bytes) escaped as " + e, e);
                }
                deriver.finish();
                events += count[0];
            }
        }
        // both outcomes must be exercised, or the mutations are too weak (or too strong) to test anything
        assertEquals(2 * ITERATIONS, failed + finished);
        assertTrue(failed > ITERATIONS / 10, "failed " + failed);
        assertTrue(finished > ITERATIONS / 10, "finished " + finished);
        assertTrue(events > 0);
    }
}
