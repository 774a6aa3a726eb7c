package dev.nicsim.interop.htsim;

import dev.nicsim.fabric.run.HtsimLines;
import dev.nicsim.scenario.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code nicsim htsim compare} against a validation output written by hand in htsim's format
 * ({@code two-experiments.out}: two experiments of three flows) and a run directory written here:
 * three flows, one started at 40 us, and the hosts' counters; every printed figure and relative
 * difference derived by hand.
 */
class HtsimCompareTest {
    @TempDir
    Path dir;

    private static Path excerpt() throws Exception {
        return Path.of(HtsimCompareTest.class.getResource("two-experiments.out").toURI());
    }

    /** Three flows: finish at 0 + 105, 40 + 80 = 120 and 0 + 255.5 us; counters of two hosts and a switch. */
    private Path runDir(final String name) throws Exception {
        final Path run = Files.createDirectories(dir.resolve("run"));
        Files.writeString(run.resolve("flows.csv"), "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n"
            + "0,1,0,2000000,0,105000,90000,1.1667\n1,2,0,250000,40000,80000,30000,2.6667\n"
            + "2,3,0,2000000,0,255500,90000,2.8389\n");
        Files.writeString(run.resolve("counters.csv"), "component,counter,value\n"
            + "host1,tx_data_packets,600\nhost1,roce_adp_retrans,30\nhost2,tx_data_packets,450\nhost2,roce_adp_retrans,20\n"
            + "host0,tx_ack_packets,210\nhost0,tx_nak_packets,50\nedge0_0,tx_data_packets,9999\n"
            + "host1/cc,nscc_quick_adapt_bytes,-2402\n");
        Files.writeString(run.resolve("run.json"), "{\n  \"scenario\": \"" + name + "\",\n  \"seed\": 13\n}\n");
        return run;
    }

    @Test
    void readsEveryExperiment() throws Exception {
        final List<HtsimCompare.Experiment> e = HtsimCompare.readOutput(excerpt());
        assertEquals(2, e.size());
        assertEquals("Three to one", e.get(0).name());
        assertEquals(5, e.get(0).line());
        assertEquals("./htsim_uec -tm connection_matrices/three.cm -end 500 -sender_cc_only", e.get(0).command());
        assertEquals(100.0, e.get(0).minUs());
        assertEquals(250.0, e.get(0).tailUs());
        assertEquals(Map.of("New", 1000L, "Rtx", 40L, "RTS", 0L, "Bounced", 0L, "ACKs", 200L, "NACKs", 40L, "Pulls", 0L,
            "sleek_pkts", 0L), e.get(0).counts());
        assertEquals("Three to one, receiver", e.get(1).name());
        assertEquals(110.25, e.get(1).minUs());
        assertEquals(320.5, e.get(1).tailUs());
        assertEquals(300L, e.get(1).counts().get("Pulls"));
    }

    @Test
    void runFiguresFromItsFiles() throws Exception {
        final HtsimLines h = HtsimCompare.runFigures(runDir("htsim-three"));
        // new = 600 + 450 - (30 + 20); the switch's row is not a host's; a signed counter the figures do not
        // read (quick adapt may raise the window, as in htsim) is not parsed
        assertEquals(new HtsimLines(3, 3, 105.0, 255.5, 1000, 50, 210, 50, 0), h);
        assertEquals("FCT Spread 105.000 -> 255.500", h.spreadLine());
        assertEquals("New: 1000 Rtx: 50 ACKs: 210 NACKs: 50 Pulls: 0", h.countsLine());
    }

    @Test
    void printsTheTwoSideBySide() throws Exception {
        final Path out = excerpt();
        final List<HtsimCompare.Experiment> all = HtsimCompare.readOutput(out);
        final Path run = runDir("htsim-three");
        // two experiments run three.cm: the run's matrix does not choose; the name or number does
        assertEquals("--experiment: " + out + " holds 2 experiments; 2 run the run's connection matrix; name one by name or"
            + " number: 1 'Three to one', 2 'Three to one, receiver'",
            assertThrows(ScenarioException.class, () -> HtsimCompare.choose(out, all, null, "htsim-three")).getMessage());
        assertEquals("--experiment: " + out + " holds 2 experiments; none is 'Four'; name one by name or number: 1 'Three to"
            + " one', 2 'Three to one, receiver'",
            assertThrows(ScenarioException.class, () -> HtsimCompare.choose(out, all, "Four", null)).getMessage());
        final HtsimCompare.Experiment e = HtsimCompare.choose(out, all, "Three to one", HtsimCompare.scenarioName(run));
        assertEquals(e, HtsimCompare.choose(out, all, "1", null));
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        HtsimCompare.print(new PrintStream(b, true, StandardCharsets.UTF_8), out, e, HtsimCompare.runFigures(run));
        // tail 255.5 / 250 = +2.20 %; min 105 / 100 = +5.00 %; Rtx 50 / 40 = +25.00 %; ACKs 210 / 200 = +5.00 %;
        // NACKs 50 / 40 = +25.00 %; Pulls 0 and 0: -
        assertEquals("""
            experiment     Three to one (two-experiments.out:5)
            htsim command  ./htsim_uec -tm connection_matrices/three.cm -end 500 -sender_cc_only
            flows finished 3 / 3
            figure               nicsim        htsim      diff
            tail FCT (us)       255.500      250.000   +2.20 %
            min FCT (us)        105.000      100.000   +5.00 %
            New                    1000         1000   +0.00 %
            Rtx                      50           40  +25.00 %
            ACKs                    210          200   +5.00 %
            NACKs                    50           40  +25.00 %
            Pulls                     0            0         -
            """, b.toString(StandardCharsets.UTF_8));
        assertEquals("n/a", HtsimCompare.relative(5, 0));
        assertEquals("-100.00 %", HtsimCompare.relative(0, 300));
    }

    @Test
    void theRunsMatrixChoosesWhenOnlyOneExperimentRunsIt() throws Exception {
        final Path out = Files.writeString(dir.resolve("x.out"), Files.readString(excerpt())
            .replace("-tm connection_matrices/three.cm -end 500 -receiver", "-tm connection_matrices/four.cm -end 500 -receiver"));
        final List<HtsimCompare.Experiment> all = HtsimCompare.readOutput(out);
        assertEquals("Three to one, receiver", HtsimCompare.choose(out, all, null, "htsim-four").name());
        assertEquals("Three to one", HtsimCompare.choose(out, all, null, "htsim-three").name());
    }

    @Test
    void malformedOutputsAndRunDirectories() throws Exception {
        final Path noSummary = Files.writeString(dir.resolve("a.out"), "Experiment: A\nFCT Spread 1 -> 2 ratio 2\n"
            + "Experiment: B\n");
        assertEquals(noSummary + ":3: experiment 'A' (line 1) has no 'Summary: New: ...' line",
            assertThrows(ScenarioException.class, () -> HtsimCompare.readOutput(noSummary)).getMessage());
        final Path noSpread = Files.writeString(dir.resolve("b.out"), "Experiment: A\nSummary: New: 1 Rtx: 0 ACKs: 1 NACKs: 0"
            + " Pulls: 0\n");
        assertEquals(noSpread + ":2: experiment 'A' (line 1) has no 'FCT Spread MIN -> MAX' line before its summary",
            assertThrows(ScenarioException.class, () -> HtsimCompare.readOutput(noSpread)).getMessage());
        final Path noPulls = Files.writeString(dir.resolve("c.out"), "Experiment: A\nFCT Spread 1 -> 2 ratio 2\n"
            + "Summary: New: 1 Rtx: 0 ACKs: 1 NACKs: 0\n");
        assertEquals(noPulls + ":3: expected 'Pulls: N' in the summary, found none",
            assertThrows(ScenarioException.class, () -> HtsimCompare.readOutput(noPulls)).getMessage());
        final Path run = runDir("htsim-three");
        Files.writeString(run.resolve("flows.csv"), "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n"
            + "0,1,0,2000000,zero,105000,90000,1.1667\n");
        assertEquals(run.resolve("flows.csv") + ":2: start_ns: expected a non-negative integer, got 'zero'",
            assertThrows(ScenarioException.class, () -> HtsimCompare.runFigures(run)).getMessage());
        Files.delete(run.resolve("counters.csv"));
        Files.writeString(run.resolve("flows.csv"), "flow_id,src,dst,size_bytes,start_ns,fct_ns,ideal_fct_ns,slowdown\n"
            + "0,1,0,2000000,0,,90000,\n");
        assertEquals(run.resolve("counters.csv") + ": no such file (expected the output directory of nicsim run)",
            assertThrows(ScenarioException.class, () -> HtsimCompare.runFigures(run)).getMessage());
    }
}
