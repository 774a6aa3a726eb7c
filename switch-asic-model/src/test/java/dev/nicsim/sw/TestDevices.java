package dev.nicsim.sw;

import com.sun.management.ThreadMXBean;
import dev.nicsim.sim.EgressPort;
import dev.nicsim.sim.EventHandler;
import dev.nicsim.sim.NetDevice;
import dev.nicsim.sim.Packet;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.RoceFraming;
import dev.nicsim.sim.Simulator;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Test harness devices: a line-rate traffic source that honours PFC, a counting sink, and helpers
 * that hand packets straight to a device at chosen times.
 */
final class TestDevices {
    private TestDevices() {
    }

    /** A host that sends {@code count} fixed-size packets back to back at line rate, pausing on PFC. */
    static final class Source implements NetDevice {
        final Simulator sim;
        final PacketPool pool;
        final String name;
        final Port port;
        int srcHost;
        int dstHost;
        int dscp;
        int ecn = Packet.ECN_ECT0;
        int udpSrcPort = 49152;
        int dstQpn = 1;
        int frameBytes = 1000;
        int remaining;
        int sent;
        int pfcFramesReceived;

        Source(final Simulator sim, final PacketPool pool, final String name, final long rateBitsPerSec,
               final long propagationPs) {
            this.sim = sim;
            this.pool = pool;
            this.name = name;
            this.port = new Port(sim, rateBitsPerSec, propagationPs);
        }

        /** Queues {@code n} more packets and starts sending. */
        void send(final int n) {
            remaining += n;
            port.kick();
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            if (packet.kind == Packet.KIND_PFC) {
                pfcFramesReceived++;
                port.applyPause(packet);
            }
            pool.release(packet);
        }

        @Override
        public String name() {
            return name;
        }

        final class Port extends EgressPort {
            Port(final Simulator sim, final long rate, final long prop) {
                super(sim, rate, prop);
            }

            @Override
            protected Packet nextDataPacket() {
                final int prio = dscp >> 3;
                if (remaining == 0 || isPaused(prio)) {
                    return null;
                }
                remaining--;
                final Packet p = pool.acquire();
                p.kind = Packet.KIND_DATA;
                p.srcHost = srcHost;
                p.dstHost = dstHost;
                p.dscp = dscp;
                p.priority = prio;
                p.ecn = ecn;
                p.udpSrcPort = udpSrcPort;
                p.dstQpn = dstQpn;
                p.psn = sent++;
                p.frameBytes = frameBytes;
                p.payloadBytes = frameBytes - RoceFraming.ROCEV2_OVERHEAD_BYTES;
                return p;
            }
        }
    }

    /** A host that counts what arrives (per priority, CE marks, order) and releases it. */
    static final class Sink implements NetDevice {
        final PacketPool pool;
        final String name;
        final long[] packetsByPriority = new long[8];
        final long[] bytesByPriority = new long[8];
        final List<Integer> priorityOrder = new ArrayList<>();
        final List<Integer> udpPortOrder = new ArrayList<>();
        long packets;
        long ceMarked;
        long pfcFrames;

        Sink(final PacketPool pool, final String name) {
            this.pool = pool;
            this.name = name;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            if (packet.kind == Packet.KIND_PFC) {
                pfcFrames++;
            } else {
                packets++;
                packetsByPriority[packet.priority]++;
                bytesByPriority[packet.priority] += packet.frameBytes;
                priorityOrder.add(packet.priority);
                udpPortOrder.add(packet.udpSrcPort);
                if (packet.ecn == Packet.ECN_CE) {
                    ceMarked++;
                }
            }
            pool.release(packet);
        }

        @Override
        public String name() {
            return name;
        }
    }

    /**
     * A host that only counts the data frames that arrive and releases every frame (CNs included):
     * it allocates nothing, unlike {@link Sink}'s lists, so allocation tests can use it.
     */
    static final class CountingSink implements NetDevice {
        private final PacketPool pool;
        long packets;

        CountingSink(final PacketPool pool) {
            this.pool = pool;
        }

        @Override
        public void receive(final Packet packet, final int inPort) {
            if (packet.kind == Packet.KIND_DATA) {
                packets++;
            }
            pool.release(packet);
        }

        @Override
        public String name() {
            return "sink";
        }
    }

    /**
     * Bytes the JVM may charge to the simulation thread during a burst that allocates nothing. Zero
     * in almost every run; the JVM itself occasionally charges a few hundred bytes to the thread
     * (e.g. on deoptimisation). One object per packet would be at least 3,000 x 16 = 48,000 bytes
     * for a 3,000-packet burst, so this bound still catches any per-packet allocation.
     */
    static final long ALLOCATION_TOLERANCE_BYTES = 4096;

    /**
     * The current thread's allocation counter; skips the test (assumption) where the JVM has none.
     *
     * @return the counter
     */
    static LongSupplier threadAllocatedBytes() {
        final java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof ThreadMXBean, "needs HotSpot thread allocation counters");
        final ThreadMXBean hs = (ThreadMXBean) mx;
        assumeTrue(hs.isThreadAllocatedMemorySupported() && hs.isThreadAllocatedMemoryEnabled(),
            "needs thread allocation counters switched on");
        final long thread = Thread.currentThread().getId();
        return () -> hs.getThreadAllocatedBytes(thread);
    }

    /** Delivers packets to a device at scheduled times (stands for the last bit arriving on a link). */
    static final class Injector implements EventHandler {
        final NetDevice target;

        Injector(final NetDevice target) {
            this.target = target;
        }

        void deliverAt(final Simulator sim, final long timePs, final Packet p, final int inPort) {
            sim.schedule(timePs, this, 0, inPort, p);
        }

        @Override
        public void onEvent(final int kind, final long arg, final Object ref) {
            target.receive((Packet) ref, (int) arg);
        }
    }

    /** A data packet from the pool. */
    static Packet data(final PacketPool pool, final int srcHost, final int dstHost, final int dscp, final int ecn,
                       final int frameBytes, final int udpSrcPort) {
        final Packet p = pool.acquire();
        p.kind = Packet.KIND_DATA;
        p.srcHost = srcHost;
        p.dstHost = dstHost;
        p.dscp = dscp;
        p.ecn = ecn;
        p.frameBytes = frameBytes;
        p.udpSrcPort = udpSrcPort;
        p.dstQpn = 1;
        return p;
    }

    /** A PFC frame from the pool pausing (quanta > 0) or resuming (0) the priorities in {@code classMask}. */
    static Packet pfc(final PacketPool pool, final int classMask, final int quanta) {
        final Packet p = pool.acquire();
        p.kind = Packet.KIND_PFC;
        p.pfcClassEnable = classMask;
        for (int i = 0; i < 8; i++) {
            if ((classMask & (1 << i)) != 0) {
                p.setPfcQuanta(i, quanta);
            }
        }
        p.frameBytes = RoceFraming.PFC_FRAME_BYTES;
        return p;
    }
}
