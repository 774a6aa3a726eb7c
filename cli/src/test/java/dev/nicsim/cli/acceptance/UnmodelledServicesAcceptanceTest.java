package dev.nicsim.cli.acceptance;

import dev.nicsim.cli.Cli;
import dev.nicsim.testsupport.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Firmware that asks for a service nicsim does not model is told so, never nothing
 * ({@link dev.nicsim.microcode.firmware.FirmwareServiceLog}): the committed test RP
 * {@code firmware/testfw/doca_unmodelled_services.c} calls {@code doca_pcc_dev_trace_5} on every event
 * (and counts its events in its counter {@code events}: the oracle of the trace count), makes one
 * unknown {@code ecall} 0x4E7F on its flow's first event, samples port 3's TX bytes (counter ID
 * {@code 1 << 24 | 2 << 4 | 3} = 0x1000023) from its port-state callback, and defines its own
 * {@code doca_pcc_dev_user_set_algo_params}. Each gives one warning on standard error at load or first
 * use, naming the ELF, the service and where, and the summary's {@code firmware services} line counts
 * them; a run with a shipped ELF shows neither.
 */
class UnmodelledServicesAcceptanceTest {
    @TempDir
    Path dir;


    private Cli.Outcome run(final String name, final String algorithm) throws IOException {
        final Path s = Acceptance.write(dir, name + ".yaml", String.join("\n",
            "name: " + name,
            "stop_time_us: 2000",
            "topology: {type: star, hosts: 2, host_link: {rate_gbps: 1, delay_ns: 1000}}",
            "nic: {mtu_bytes: 1000, tx_burst_packets: 1}",
            "algorithm: " + algorithm,
            "workload: {type: flows, flows: [{src: 1, dst: 0, size_bytes: 4000}]}",
            ""));
        final Cli.Outcome o = Cli.run("run", s.toString(), "--out", dir.resolve(name).toString(), "--no-progress");
        assertEquals(0, o.exitCode(), o.err());
        return o;
    }

    @Test
    void everyUnmodelledServiceIsWarnedOnceAndCountedInTheSummary() throws IOException {
        final Cli.Outcome o = run("services", "{firmware: " + TestPaths.firmwareOrSkip("test/doca_unmodelled_services.elf") + ", params: {step: 2}}");
        assertTrue(o.out().contains("flows done          1 / 1"), o.out());
        final String w = "nicsim: warning: firmware doca_unmodelled_services.elf: ";
        assertEquals(4, o.err().lines().filter(l -> l.startsWith(w)).count(), o.err());
        assertTrue(o.err().contains(w + "doca_pcc_dev_user_set_algo_params defined by the program at 0x"), o.err());
        assertTrue(o.err().contains(" while the scenario sets step: not called: nicsim writes algorithm.params into the"
            + " parameter table itself"), o.err());
        assertTrue(o.err().contains(w + "doca_pcc_dev_nic_counters_sample with counter ID 0x1000023, returning to "), o.err());
        assertTrue(o.err().matches("(?s).*" + w + "doca_pcc_dev_trace_5 returning to doca_pcc_dev_user_algo\\+0x[0-9a-f]+"
            + " on host1 at \\d+\\.\\d{6} us: trace records are not modelled: dropped.*"), o.err());
        assertTrue(o.err().matches("(?s).*" + w + "ecall number 0x4e7f at pc 0x[0-9a-f]+ \\(doca_pcc_dev_user_algo\\+0x[0-9a-f]+\\)"
            + " on host1 at \\d+\\.\\d{6} us: not a nicsim ecall.*"), o.err());

        final Map<String, Long> c = Acceptance.counters(dir.resolve("services"));
        final long events = c.get("host1/cc.events");
        assertTrue(events >= 4, "4 TX events at least: " + events);
        final String line = o.out().lines().filter(l -> l.startsWith("firmware services   ")).findFirst()
            .orElseThrow(() -> new AssertionError("no firmware services line:\n" + o.out()));
        assertTrue(line.startsWith("firmware services   doca_unmodelled_services.elf: doca_pcc_dev_trace_5 x " + events
            + " (trace records are not modelled: dropped), first: returning to doca_pcc_dev_user_algo+0x"), line);
        assertTrue(line.contains("; ecall x 1 ("), line);
        // the one NIC whose firmware ran (host 1's) sampled once from its port-state callback: one fault
        assertTrue(line.contains("; doca_pcc_dev_nic_counters_sample x 1 (counter ID not modelled"), line);
        assertEquals(1L, c.get("host1/cc.firmware_faults"));
        assertTrue(line.contains("; doca_pcc_dev_user_set_algo_params x 1 (not called:"), line);
    }

    @Test
    void leavingTheParametersAloneLeavesTheProgramsSetAlgoParamsUnmentioned() throws IOException {
        final Cli.Outcome o = run("defaults", "{firmware: " + TestPaths.firmwareOrSkip("test/doca_unmodelled_services.elf") + "}");
        assertFalse(o.err().contains("doca_pcc_dev_user_set_algo_params"), o.err());
        assertFalse(o.out().contains("doca_pcc_dev_user_set_algo_params"), o.out());
        assertEquals(3, o.err().lines().filter(l -> l.startsWith("nicsim: warning: firmware ")).count(), o.err());
    }

    @Test
    void aShippedElfThatUsesOnlyModelledServicesGetsNoWarningAndNoLine() throws IOException {
        final Cli.Outcome o = run("shipped", "{firmware: " + TestPaths.firmwareOrSkip("dcqcn.elf") + "}");
        assertFalse(o.err().contains("warning"), o.err());
        assertFalse(o.out().contains("firmware services"), o.out());
    }
}
