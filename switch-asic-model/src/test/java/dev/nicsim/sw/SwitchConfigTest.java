package dev.nicsim.sw;

import dev.nicsim.sim.CounterRegistry;
import dev.nicsim.sim.PacketPool;
import dev.nicsim.sim.Simulator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults, validation messages and the headroom formula of {@link SwitchConfig}. */
class SwitchConfigTest {
    @Test
    void defaultsAreValidAndDocumented() {
        final SwitchConfig c = new SwitchConfig().validate();
        assertEquals(32L * 1024 * 1024, c.bufferBytes);
        assertEquals(3, c.dscpToPriority[26]); // 26 >> 3 = 3 (RoCE DSCP)
        assertEquals(6, c.dscpToPriority[48]); // 48 >> 3 = 6 (CNP DSCP)
        assertEquals(4178, c.maxFrameBytes); // 4096 payload + 66 RoCEv2 overhead + 16 RETH
    }

    @Test
    void headroomFormula() {
        // 100 Gb/s, 1 us, 1000-byte frames: 2 * 1e-6 s * 1e11 b/s / 8 = 25 000 B on the wire during 2 x prop,
        // + 2 * (1000 + 20) for the frame ahead of the PFC frame and the frame the upstream finishes,
        // + (64 + 20) for the PFC frame, + 1 000 for the frame that crossed xoff and is admitted into
        // headroom itself = 25 000 + 2 040 + 84 + 1 000 = 28 124
        assertEquals(28_124, SwitchConfig.requiredHeadroomBytes(100_000_000_000L, 1_000_000, 1000));
        // 400 Gb/s, 1 us, 4178-byte frames: 100 000 + 2 * 4198 + 84 + 4178 = 112 658
        assertEquals(112_658, SwitchConfig.requiredHeadroomBytes(400_000_000_000L, 1_000_000, 4178));
        // 25 Gb/s, 1 ps: 2 * 1e-12 * 25e9 / 8 = 0.00625 B, rounded up to 1; + 2 * 84 + 84 + 64 = 317
        assertEquals(317, SwitchConfig.requiredHeadroomBytes(25_000_000_000L, 1, 64));
        assertThrows(IllegalArgumentException.class, () -> SwitchConfig.requiredHeadroomBytes(0, 1, 64));
    }

    @Test
    void validateNamesTheBadField() {
        assertField("bufferBytes", c -> c.bufferBytes = 0);
        assertField("dscpToPriority[5]", c -> c.dscpToPriority[5] = 8);
        assertField("dscpToPriority", c -> c.dscpToPriority = new int[10]);
        assertField("pfcEnabled", c -> c.pfcEnabled = new boolean[7]);
        assertField("pfcAlpha", c -> c.pfcAlpha = 0);
        assertField("xonBytes[2]", c -> c.xonBytes[2] = c.xoffBytes[2] + 1);
        assertField("xoffBytes[1]", c -> c.xoffBytes[1] = 0);
        assertField("headroomBytes[3]", c -> c.headroomBytes[3] = -7);
        assertField("egressAlpha", c -> c.egressAlpha = Double.POSITIVE_INFINITY);
        assertField("queueLimitBytes[0]", c -> c.queueLimitBytes[0] = 0);
        assertField("dwrrQuantumBytes[4]", c -> c.dwrrQuantumBytes[4] = 0);
        assertField("strictPriorityMask", c -> c.strictPriorityMask = 0x100);
        assertField("camDepth", c -> c.camDepth = -1);
        assertField("camSamplePeriod", c -> c.camSamplePeriod = 0);
        assertField("camCongestedBytes", c -> c.camCongestedBytes = -2);
        assertField("maxFrameBytes", c -> c.maxFrameBytes = 63);
    }

    @Test
    void switchCopiesConfigAndChecksBufferAgainstHeadroom() {
        final SwitchConfig c = new SwitchConfig();
        c.pfcEnabled[3] = true;
        c.headroomBytes[3] = 40_000;
        c.bufferBytes = 100_000;
        final SwitchAsic sw = new SwitchAsic(new Simulator(), "sw", 3, c, new CounterRegistry(), new PacketPool(), 1);
        c.headroomBytes[3] = 1; // no effect on the built switch
        final TestDevices.Sink sink = new TestDevices.Sink(new PacketPool(), "h");
        sw.connectPort(0, 100_000_000_000L, 1000, sink, 0);
        // 100 000 - 40 000 reserved for (port 0, PG 3) = 60 000 shared
        assertEquals(60_000, sw.sharedPoolBytes());
        sw.connectPort(1, 100_000_000_000L, 1000, sink, 0);
        assertEquals(20_000, sw.sharedPoolBytes());
        // a third port would reserve 120 000 >= 100 000: rejected
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> sw.connectPort(2, 100_000_000_000L, 1000, sink, 0));
        assertTrue(e.getMessage().contains("bufferBytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sw.connectPort(0, 100_000_000_000L, 1000, sink, 0));
        assertThrows(IllegalArgumentException.class,
            () -> new SwitchAsic(new Simulator(), "sw", 0, new SwitchConfig(), new CounterRegistry(), new PacketPool(), 1));
    }

    private static void assertField(final String field, final java.util.function.Consumer<SwitchConfig> breakIt) {
        final SwitchConfig c = new SwitchConfig();
        breakIt.accept(c);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::validate);
        assertTrue(e.getMessage().startsWith(field), "message should name " + field + ": " + e.getMessage());
    }
}
