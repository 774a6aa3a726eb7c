package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 through the CLI, on the committed Addendum A test programs ({@code firmware/testfw/doca_*.c}):
 * {@code firmware info} says which optional DOCA handlers an ELF defines (and reads an NP-only ELF),
 * and in a run the TX sampler reads the sending NIC's real byte counter: a sender at line rate sees its
 * port busy and the program cuts its rate (with counters that read 0 it would keep line rate).
 */
class DocaServicesAcceptanceTest {
    @TempDir
    Path dir;

    private static Path testElf(final String file) {
        final Path p = TestPaths.root().resolve("firmware/bin/test").resolve(file);
        Assumptions.assumeTrue(Files.exists(p), "firmware/bin/test/" + file + " not in this checkout");
        return p;
    }

    @Test
    void firmwareInfoShowsTheOptionalHandlers() {
        final Cli.Outcome np = Cli.run("firmware", "info", testElf("doca_np_rx_bytes.elf").toString());
        assertEquals(0, np.exitCode(), np.err());
        assertTrue(np.out().contains("notification-point program (no doca_pcc_dev_user_algo)"), np.out());
        assertTrue(np.out().contains("handlers: NP packet yes, host mailbox no, port info no"), np.out());
        final Cli.Outcome mb = Cli.run("firmware", "info", testElf("doca_rp_mailbox_budget.elf").toString());
        assertTrue(mb.out().contains("handlers: NP packet no, host mailbox yes, port info no"), mb.out());
        final Cli.Outcome tx = Cli.run("firmware", "info", testElf("doca_rp_tx_sampler.elf").toString());
        assertTrue(tx.out().contains("handlers: NP packet no, host mailbox no, port info yes"), tx.out());
    }

    @Test
    void theTxSamplerReadsTheSendingNicsByteCounter() throws IOException {
        final Path out = dir.resolve("tx");
        final Cli.Outcome o = Cli.run("run", Acceptance.shipped("incast-dcqcn.yaml").toString(), "--out", out.toString(),
            "--no-progress", "--set", "algorithm.firmware=" + testElf("doca_rp_tx_sampler.elf"));
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.out().contains(" model; 0 faults, 0 over the budget"), o.out());
        final List<String> rates = Files.readAllLines(out.resolve("rates.csv"));
        long cut = 0;
        for (final String row : rates.subList(1, rates.size())) {
            if (Long.parseLong(row.split(",", -1)[2]) < 100_000_000_000L) {
                cut++;
            }
        }
        assertTrue(cut > 0, "no sender's rate was cut: the program read no TX bytes");
    }
}
