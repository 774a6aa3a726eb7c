package dev.nicsim.cli.hostile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.nicsim.cli.hostile.Hostile.badInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 4 (without ns-3 import) and defect 11's MTU item: valid-looking input that
 * was an internal error (exit 1, "please report") is bad input (exit 2) naming the field.
 */
class InternalErrorsTest {
    @TempDir
    Path dir;

    /** An empty but valid classic pcap (Ethernet): replay checks its options before reading packets. */
    private Path emptyCapture() throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        return Files.write(dir.resolve("empty.pcap"), b.array());
    }

    @Test
    void aLinkDelayWhoseBaseRttOverflowsIsBadInput() throws IOException {
        // 536870912 ns = 2^29 ns per link; a flow crosses 2 links each way: 4 * 2^29 = 2^31 ns > 2^31 - 1
        final String line = badInput("run", Hostile.scenario(dir, Hostile.SMALL).toString(), "--no-progress", "--out",
            dir.resolve("o").toString(), "--set", "topology.host_link.delay_ns=536870912");
        assertTrue(line.contains("base RTT") && line.contains("delay_ns"), line);
    }

    @Test
    void pfcHeadroomLargerThanTheBufferIsBadInput() throws IOException {
        final String line = badInput("run", Hostile.scenario(dir, Hostile.SMALL).toString(), "--no-progress", "--out",
            dir.resolve("o").toString(), "--set", "switch.pfc.enabled=true", "--set", "switch.buffer_bytes=10000");
        assertTrue(line.contains("switch.buffer_bytes 10000 is too small") && line.contains("switch.pfc.headroom_bytes"),
            line);
    }

    @Test
    void replayLineRatesAndMtusOutsideTheScenarioRangesAreBadInput() throws IOException {
        final String capture = emptyCapture().toString();
        final String out = dir.resolve("o").toString();
        assertEquals("nicsim: --line-rate-gbps: expected a rate in [0.001, 1600.0] Gb/s (as a scenario's rate_gbps),"
            + " got 3000.0", badInput("replay", capture, "--algorithm", "dcqcn", "--line-rate-gbps", "3000", "--out", out));
        assertEquals("nicsim: --mtu-bytes: expected a size in [256, 9000] bytes (as a scenario's nic.mtu_bytes), got 1",
            badInput("replay", capture, "--algorithm", "dcqcn", "--mtu-bytes", "1", "--out", out));
    }
}
