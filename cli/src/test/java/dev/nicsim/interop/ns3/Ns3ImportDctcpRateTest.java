package dev.nicsim.interop.ns3;

import dev.nicsim.fabric.fct.FctFile;

import dev.nicsim.cli.Cli;
import dev.nicsim.scenario.Scenario;
import dev.nicsim.scenario.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ns3 import} of a CC_MODE 8 configuration (the reference's rate-based DCTCP) gives a scenario
 * running {@code dctcp-rate} with EWMA_GAIN, DCTCP_RATE_AI and MIN_RATE, no CNPs and a TX_BURST per
 * packet; the scenario runs on the three-host fixture of {@link Ns3ImportTest} with a 2-to-1 incast
 * of 300,000 bytes each, marked above 20 KB, so the algorithm really cuts.
 */
class Ns3ImportDctcpRateTest {
    static final String CONFIG = Ns3ImportTest.CONFIG.replace("CC_MODE 1", "CC_MODE 8\nDCTCP_RATE_AI 500Mb/s")
        .replace("KMAX_MAP 1 100000000000 1600", "KMAX_MAP 1 100000000000 80")
        .replace("KMIN_MAP 1 100000000000 400", "KMIN_MAP 1 100000000000 20");
    static final String FLOWS = "2\n0 1 3 100 300000 0.000001\n2 1 3 100 300000 0.000001\n";

    @Test
    void ccMode8ImportsAsDctcpRateAndRuns(@TempDir final Path dir) throws Exception {
        Files.writeString(dir.resolve("topo.txt"), Ns3ImportTest.TOPOLOGY);
        Files.writeString(dir.resolve("flow.txt"), FLOWS);
        final Path config = dir.resolve("config.txt");
        Files.writeString(config, CONFIG);
        final Path scenario = dir.resolve("s/imported.yaml");
        Cli.Outcome o = Cli.run("ns3", "import", config.toString(), "--topology", dir.resolve("topo.txt").toString(),
            "--flows", dir.resolve("flow.txt").toString(), "--to", scenario.toString());
        assertEquals(0, o.exitCode(), o.err());
        assertFalse(o.out().contains("EWMA_GAIN"), o.out()); // mapped, not ignored
        assertFalse(o.out().contains("DCTCP_RATE_AI"), o.out()); // mapped, not ignored
        assertTrue(o.out().contains("RATE_AI 20Mb/s"), o.out()); // DCQCN's AI: ignored, not read by mode 8

        final Scenario s = ScenarioLoader.load(scenario, List.of(), null);
        assertEquals("dctcp-rate", s.algorithm().name());
        assertEquals(0.00390625, s.algorithm().values().value("g")); // EWMA_GAIN
        assertEquals(500, s.algorithm().values().value("rate_ai_mbps")); // DCTCP_RATE_AI 500Mb/s
        assertEquals(1000, s.algorithm().values().value("min_rate_mbps")); // MIN_RATE 1000Mb/s
        assertEquals(1, s.algorithm().values().value("initial_alpha"));
        assertEquals("DCTCP_RATE_AI 500Mb/s (line 10)",
            Ns3ImportTest.comment(Files.readString(scenario), "algorithm.params.rate_ai_mbps"));
        assertFalse(s.nic().npEnabled());
        assertEquals(1, s.nic().txBurstPackets());

        final Path out = dir.resolve("out");
        o = Cli.run("run", scenario.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(2, FctFile.read(out.resolve("fct.txt")).size());
        // the senders (hosts 0 and 2) saw ECN echoes and cut their rates
        long marked = 0;
        long cuts = 0;
        for (final String l : Files.readAllLines(out.resolve("counters.csv"))) {
            final String[] f = l.split(",");
            if (f.length == 3 && (f[0].equals("host0/cc") || f[0].equals("host2/cc"))) {
                marked += f[1].equals("dctcp_rate_acks_marked") ? Long.parseLong(f[2]) : 0;
                cuts += f[1].equals("dctcp_rate_cuts") ? Long.parseLong(f[2]) : 0;
            }
        }
        assertTrue(marked > 0 && cuts > 0 && cuts < marked, "marked " + marked + ", cuts " + cuts);
    }
}
