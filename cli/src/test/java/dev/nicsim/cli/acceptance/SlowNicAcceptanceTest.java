package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 3, done-when 6: in the DCQCN incast, a uNIC emulator too slow for the event rate
 * ({@code scenarios/incast-dcqcn-slow-nic.yaml}: one core, one thread, 20 MHz, a 2-event ring)
 * measurably delays the control loop and its drops show in the counters, against the same incast
 * on the default emulator (16 cores x 16 threads at 1 GHz).
 */
class SlowNicAcceptanceTest {
    @TempDir
    Path dir;

    private Map<String, Long> run(final String scenario) throws IOException {
        final Path out = dir.resolve(scenario);
        final Cli.Outcome o = Cli.run("run", TestPaths.root().resolve("scenarios/" + scenario + ".yaml").toString(),
            "--out", out.toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        final Map<String, Long> sums = new HashMap<>();
        for (final String line : Files.readAllLines(out.resolve("counters.csv")).subList(1,
            Files.readAllLines(out.resolve("counters.csv")).size())) {
            final String[] f = line.split(",");
            // sum each counter over the senders' NICs (host0..host15) and their CC processors
            final String key = (f[0].endsWith("/cc") ? "cc/" : f[0].startsWith("host") ? "nic/" : "sw/") + f[1];
            if (key.equals("cc/latency_p99_ns")) {
                sums.merge(key, Long.parseLong(f[2]), Math::max);
            } else {
                sums.merge(key, Long.parseLong(f[2]), Long::sum);
            }
        }
        return sums;
    }

    private static long dropped(final Map<String, Long> c) {
        long d = 0;
        for (final String t : new String[] {"tx", "ack", "nack", "cnp", "rtt", "timer"}) {
            d += c.getOrDefault("cc/" + t + "_events_dropped", 0L);
        }
        return d;
    }

    @Test
    void aSlowEmulatorDropsEventsAndReactsLate() throws IOException {
        final Map<String, Long> normal = run("incast-dcqcn");
        final Map<String, Long> slow = run("incast-dcqcn-slow-nic");

        // the default emulator keeps up: nothing dropped
        assertEquals(0, dropped(normal));
        // the slow one: a sender sees ~0.7 M events/s at its 1/16 share of 100 Gb/s (per-packet ACKs
        // of 1090-byte frames at 6.25 Gb/s, plus TX bursts and CNPs), while one 20 MHz thread
        // needs about 50 cycles = 2.5 us an event (<= 0.4 M events/s): events wait, merge and,
        // with only 2 places in the ring, are dropped
        assertTrue(dropped(slow) > 0, "drops counted per type: " + slow);
        assertTrue(slow.getOrDefault("cc/ack_events_coalesced", 0L) > 0, "ACKs merged while waiting");

        // the reaction is late: the worst NIC's p99 event latency (arrival to result) is at least
        // ten times the default's (2.5 us of service alone against about 0.1 us)
        assertTrue(slow.get("cc/latency_p99_ns") >= 10 * normal.get("cc/latency_p99_ns"),
            "p99 latency slow " + slow.get("cc/latency_p99_ns") + " ns vs " + normal.get("cc/latency_p99_ns") + " ns");

        // ... and the network pays for it: with DCQCN reacting late the senders spend longer
        // paused by PFC (mlx5 rx_pause_duration, summed over the 16 senders)
        final long pausedNormal = normal.get("nic/rx_pause_duration_us");
        final long pausedSlow = slow.get("nic/rx_pause_duration_us");
        assertTrue(pausedNormal > 0, "the incast pauses the senders");
        assertTrue(pausedSlow > pausedNormal, "paused " + pausedSlow + " us (slow NIC) vs " + pausedNormal + " us");
    }
}
