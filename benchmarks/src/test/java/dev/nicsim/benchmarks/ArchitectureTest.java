package dev.nicsim.benchmarks;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The module map of docs/architecture.md as rules on the main classes of every module (this module's test
 * class path holds them all: the command line and the sweep depend on the rest): no package cycle; no
 * model module (pcc-api, riscv-core, microcode, sim-core, nic-model, switch-asic-model) uses the command
 * line, the scenario, fabric, interop or trace modules, or an I/O or command-line library (picocli,
 * Chronicle, XChart, Jackson, commons-csv, Spark, progressbar); and no module uses one above it.
 * Test classes and JMH's generated classes are not read.
 */
class ArchitectureTest {
    /** Each module's packages, as {@code ArchUnit} package patterns. */
    private static final Map<String, String> MODULE_PACKAGES = Map.ofEntries(
        Map.entry("pcc-api", "dev.nicsim.pcc.."),
        Map.entry("riscv-core", "dev.nicsim.riscv.."),
        Map.entry("microcode", "dev.nicsim.microcode.."),
        Map.entry("sim-core", "dev.nicsim.sim.."),
        Map.entry("nic-model", "dev.nicsim.nic.."),
        Map.entry("switch-asic-model", "dev.nicsim.sw.."),
        Map.entry("scenario", "dev.nicsim.scenario.."),
        Map.entry("fabric", "dev.nicsim.fabric.."),
        Map.entry("interop", "dev.nicsim.interop.."),
        Map.entry("trace", "dev.nicsim.traces.."),
        Map.entry("cli", "dev.nicsim.cli.."),
        Map.entry("sweep", "dev.nicsim.sweep.."),
        Map.entry("benchmarks", "dev.nicsim.benchmarks.."));

    /** The modules each module may use, as its pom declares (the map's arrows). */
    private static final Map<String, List<String>> MAY_USE = Map.ofEntries(
        Map.entry("pcc-api", List.of()),
        Map.entry("riscv-core", List.of()),
        Map.entry("microcode", List.of("pcc-api", "riscv-core")),
        Map.entry("sim-core", List.of()),
        Map.entry("nic-model", List.of("pcc-api", "sim-core")),
        Map.entry("switch-asic-model", List.of("sim-core")),
        Map.entry("scenario", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model", "switch-asic-model")),
        Map.entry("fabric", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model", "switch-asic-model",
            "scenario")),
        Map.entry("interop", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model", "switch-asic-model",
            "scenario", "fabric")),
        Map.entry("trace", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model", "switch-asic-model",
            "scenario", "fabric")),
        Map.entry("cli", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model", "switch-asic-model",
            "scenario", "fabric", "interop", "trace")),
        Map.entry("sweep", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model", "switch-asic-model",
            "scenario", "fabric", "interop", "trace", "cli")),
        Map.entry("benchmarks", List.of("pcc-api", "riscv-core", "microcode", "sim-core", "nic-model",
            "switch-asic-model", "scenario", "fabric", "trace")));

    private static final String[] MODEL_PACKAGES = {
        "dev.nicsim.pcc..", "dev.nicsim.riscv..", "dev.nicsim.microcode..", "dev.nicsim.sim..", "dev.nicsim.nic..",
        "dev.nicsim.sw.."};

    /** Command-line and I/O libraries, and our modules above the models. */
    private static final String[] NOT_FOR_MODELS = {
        "picocli..", "net.openhft..", "org.knowm.xchart..", "com.fasterxml.jackson..", "org.apache.commons.csv..",
        "org.apache.spark..", "me.tongfei..", "dev.nicsim.scenario..", "dev.nicsim.fabric..", "dev.nicsim.interop..",
        "dev.nicsim.traces..", "dev.nicsim.cli..", "dev.nicsim.sweep.."};

    private static final JavaClasses MAIN = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("/jmh_generated/"))
        .importPackages("dev.nicsim");

    /** The rules below prove something only if every module's classes were read. */
    @Test
    void everyModulesMainClassesAreRead() {
        final Set<String> missing = new TreeSet<>(MODULE_PACKAGES.keySet());
        MAIN.forEach(c -> MODULE_PACKAGES.forEach((module, pattern) -> {
            if (c.getPackageName().equals(pattern.substring(0, pattern.length() - 2))
                || c.getPackageName().startsWith(pattern.substring(0, pattern.length() - 1))) {
                missing.remove(module);
            }
        }));
        assertEquals(Set.of(), missing, "no main class read of these modules");
    }

    @Test
    void noPackageCycle() {
        slices().matching("dev.nicsim.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void modelModulesUseNoCommandLineNoIoLibraryAndNoModuleAboveThem() {
        noClasses().that().resideInAnyPackage(MODEL_PACKAGES)
            .should().dependOnClassesThat().resideInAnyPackage(NOT_FOR_MODELS)
            .check(MAIN);
    }

    @Test
    void noModuleUsesOneAboveIt() {
        Architectures.LayeredArchitecture layers = Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (final Map.Entry<String, String> e : MODULE_PACKAGES.entrySet()) {
            layers = layers.layer(e.getKey()).definedBy(e.getValue());
        }
        for (final Map.Entry<String, List<String>> e : MAY_USE.entrySet()) {
            layers = e.getValue().isEmpty() ? layers.whereLayer(e.getKey()).mayNotAccessAnyLayer()
                : layers.whereLayer(e.getKey()).mayOnlyAccessLayers(e.getValue().toArray(String[]::new));
        }
        layers.check(MAIN);
    }
}
