package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each C port in {@code firmware/bin} gives exactly its Java handler's result and context on every
 * event of the benchmarks' scripted flow ({@link ScriptedFlow}, 20,000 events of every type): rate,
 * window, RTT probe, timer, fast-start budget and all 12 context words after each event, and the
 * flow-start result. Uses the committed ELFs (no cross compiler); skips with one line when the
 * checkout has no {@code firmware/bin}.
 */
class FirmwareDifferentialTest {
    private static final int EVENTS = 20_000;

    static Path elf(final String file) {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("nicsim"))) {
            p = p.getParent();
        }
        final Path root = p == null ? Path.of("") : p;
       
        final Path f = root.resolve("firmware/bin").resolve(file);
        final Path interim = root.resolve("firmware/interim").resolve(file);
        Assumptions.assumeTrue(Files.exists(f) || Files.exists(interim), "firmware/bin/" + file + " not in this checkout");
        return Files.exists(f) ? f : interim;
    }

    @ParameterizedTest
    @CsvSource({"dcqcn, dcqcn.elf", "dctcp, dctcp.elf", "ldcp, ldcp.elf", "ldcp-pcc, ldcp_pcc.elf"})
    void scriptedFlowGivesTheJavaResults(final String name, final String file) {
        final FirmwareProvider fw = FirmwareProvider.load(elf(file), FirmwareProvider.DEFAULT_MAX_INSTRUCTIONS_PER_EVENT);
        final PccAlgorithmProvider java = PccAlgorithms.byName(name);
        final ScriptedFlow j = new ScriptedFlow(java.create(java.defaults()));
        final ScriptedFlow f = new ScriptedFlow(fw.create(fw.defaults()));
        same(name + " flow start", j.result, f.result);
        for (int i = 0; i < EVENTS; i++) {
            j.next();
            f.next();
            j.run(j.event);
            f.run(f.event);
            final String at = name + " event " + i + " (" + j.event + ")";
            same(at, j.result, f.result);
            for (int w = 0; w < 12; w++) {
                assertEquals(j.context.get(w), f.context.get(w), at + ": context word " + w);
            }
        }
        assertEquals(0, fw.faults(), fw.firstFault());
        assertEquals(0, fw.budgetExceeded(), fw.firstFault());
    }

    private static void same(final String at, final PccResult a, final PccResult b) {
        assertEquals(a.toString(), b.toString(), at);
    }
}
