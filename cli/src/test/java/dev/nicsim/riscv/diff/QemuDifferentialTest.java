package dev.nicsim.riscv.diff;

import dev.nicsim.riscv.RiscvTestsModels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nicsim.cli.RiscvCommand;
import dev.nicsim.riscv.diff.CrossToolchain.Arch;
import dev.nicsim.riscv.diff.CrossToolchain.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of the RISC-V core against QEMU user mode (issue 11, "Must show"): the same ELF
 * runs under {@code qemu-riscv32}/{@code qemu-riscv64} and under {@code nicsim riscv run}
 * ({@link RiscvCommand#run}, in process), and the program's stdout bytes and exit status must be
 * identical. nicsim's own summary goes to stderr and is not compared.
 *
 * <p>Programs: the C programs in {@code src/test/c/progs} (integer corner cases, 64-bit multiply
 * and divide, sorting, CRC-32, DCQCN/TIMELY fixed point), each built for rv32im, rv32imac, rv64im,
 * rv64imac, and rv32imac/rv64imac with Zbb and Zbs (QEMU {@code -cpu rvXX,zbb=true,zbs=true};
 * nicsim with {@code e31-zbb-zbs.yaml}, whose random programs also draw Zbb/Zbs instructions); and {@value #RANDOM_PER_ARCH} seeded random instruction sequences per target from
 * {@link RandomProgramGenerator}, which end by printing all 31 registers and their scratch memory.
 * C programs run with the e31 cycle model, random programs alternately with e31 and ibex: the
 * architectural result must not depend on the timing model.
 *
 * <p>Skips with a one-line reason when {@code riscv64-unknown-elf-gcc}, {@code qemu-riscv32} or
 * {@code qemu-riscv64} is not on {@code PATH}; with {@code -Dnicsim.requireTools=true} (set by
 * {@code .ci/run}, which installs them) a missing tool fails instead. System properties
 * {@code nicsim.rvdiff.seed} (default {@value #DEFAULT_SEED}) and {@code nicsim.rvdiff.random}
 * (programs per target, default {@value #RANDOM_PER_ARCH}) allow longer soak runs. A mismatch
 * copies the ELF (and the random program's source) to {@code target/rv-diff-failures/}.
 */
class QemuDifferentialTest {

    /** The programs of {@code src/test/c/progs}, without {@code .c}. */
    static final List<String> PROGRAMS = List.of(
            "intcorner", "muldiv64", "sort", "crc32", "fixedrate", "syscalls", "smc");
    /** Random programs per target in a default run. */
    static final int RANDOM_PER_ARCH = 20;
    /** Items per random program. */
    static final int RANDOM_ITEMS = 1000;
    /** Base seed of the random programs in a default run. */
    static final long DEFAULT_SEED = 20240611L;
    /** Instruction limit given to nicsim so a wrong branch cannot hang the build. */
    static final long MAX_INSTRUCTIONS = 200_000_000L;

    @TempDir
    static Path work;

    /**
     * Null when the tools are there; otherwise the one dynamic test a factory returns instead of
     * its programs, which is skipped with the reason (or fails under nicsim.requireTools=true).
     * A skip in a {@code @BeforeAll} would not show its reason in surefire's report.
     */
    private static DynamicTest missingToolsTest() {
        Optional<String> missing = CrossToolchain.missingTool();
        if (missing.isEmpty()) {
            return null;
        }
        String reason = missing.get() + " not on PATH (Debian packages gcc-riscv64-unknown-elf, qemu-user)";
        return DynamicTest.dynamicTest("cross tools present", () -> {
            if (Boolean.getBoolean("nicsim.requireTools")) {
                fail(reason + ", and nicsim.requireTools=true");
            }
            assumeTrue(false, reason + ": QEMU differential tests skipped");
        });
    }

    /** Each C program of {@link #PROGRAMS} on each target, under the e31 model. */
    @TestFactory
    Stream<DynamicTest> cProgramsMatchQemu() {
        DynamicTest skip = missingToolsTest();
        if (skip != null) {
            return Stream.of(skip);
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (String program : PROGRAMS) {
            for (Arch arch : Arch.values()) {
                tests.add(DynamicTest.dynamicTest(program + " " + arch.march, () -> {
                    Path elf = work.resolve(program + "-" + arch.march + ".elf");
                    CrossToolchain.buildC(arch, CrossToolchain.sourceDir().resolve("progs").resolve(program + ".c"), elf);
                    compare(arch, elf, arch.bitManipulation() ? zbModel() : "e31", program + " " + arch.march, null);
                }));
            }
        }
        return tests.stream();
    }

    /** {@code nicsim.rvdiff.random} generated programs per target, seeds from {@code nicsim.rvdiff.seed}. */
    @TestFactory
    Stream<DynamicTest> randomProgramsMatchQemu() {
        DynamicTest skip = missingToolsTest();
        if (skip != null) {
            return Stream.of(skip);
        }
        long baseSeed = Long.getLong("nicsim.rvdiff.seed", DEFAULT_SEED);
        int perArch = Integer.getInteger("nicsim.rvdiff.random", RANDOM_PER_ARCH);
        List<DynamicTest> tests = new ArrayList<>();
        for (Arch arch : Arch.values()) {
            for (int i = 0; i < perArch; i++) {
                long seed = baseSeed + 1000L * arch.ordinal() + i;
                // the architectural result must not depend on the timing model: alternate them
                String model = arch.bitManipulation() ? zbModel() : i % 2 == 0 ? "e31" : "ibex";
                String name = "random seed=" + seed + " " + arch.march + " " + model;
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    Path asm = work.resolve("random-" + seed + "-" + arch.march + ".S");
                    Files.writeString(asm, RandomProgramGenerator.generate(seed, arch.xlen, arch.atomics, arch.bitManipulation(),
                            RANDOM_ITEMS),
                            StandardCharsets.UTF_8);
                    Path elf = work.resolve("random-" + seed + "-" + arch.march + ".elf");
                    CrossToolchain.buildRandom(arch, asm, elf);
                    compare(arch, elf, model, name, asm);
                }));
            }
        }
        return tests.stream();
    }

    /**
     * @return the path of the test model {@code e31-zbb-zbs.yaml} (e31's timing with Zbb and Zbs),
     *     which the Zbb/Zbs targets run under (e31 and ibex trap those instructions)
     */
    static String zbModel() {
        return RiscvTestsModels.zbModel();
    }

    private static void compare(Arch arch, Path elf, String model, String what, Path source) {
        Outcome qemu = CrossToolchain.runQemu(arch, elf);
        ByteArrayOutputStream nicsimErr = new ByteArrayOutputStream();
        Outcome nicsim = runNicsim(elf, model, nicsimErr);
        String expected = new String(qemu.stdout(), StandardCharsets.ISO_8859_1);
        String actual = new String(nicsim.stdout(), StandardCharsets.ISO_8859_1);
        if (!expected.equals(actual) || qemu.exitStatus() != nicsim.exitStatus()) {
            keep(elf, source);
        }
        // nicsim's stderr (summary, or the fault line with pc, symbol and instruction word) explains most mismatches
        String context = "; nicsim exit " + nicsim.exitStatus() + ", stderr: "
                + nicsimErr.toString(StandardCharsets.ISO_8859_1).strip();
        assertEquals(expected, actual, () -> what + ": stdout differs from QEMU's " + firstDifference(expected, actual) + context);
        assertEquals(qemu.exitStatus(), nicsim.exitStatus(), () -> what + ": exit status differs from QEMU's" + context);
    }

    /**
     * Runs the ELF in process through the {@code riscv run} command.
     *
     * @param elf the executable
     * @param model the cycle model name ({@code e31} or {@code ibex})
     * @param err receives nicsim's stderr: the program's stderr and nicsim's summary or fault line
     * @return the program's stdout and exit status
     */
    static Outcome runNicsim(Path elf, String model, ByteArrayOutputStream err) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.ISO_8859_1);
                PrintStream e = new PrintStream(err, true, StandardCharsets.ISO_8859_1)) {
            status = RiscvCommand.run(new String[] {"run", elf.toString(), "--model", model,
                "--max-instructions", Long.toString(MAX_INSTRUCTIONS)}, o, e);
        }
        return new Outcome(out.toByteArray(), status);
    }

    /** The first line where the two outputs differ, 1-based, both versions. */
    static String firstDifference(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String el = i < e.length ? e[i] : "<end of output>";
            String al = i < a.length ? a[i] : "<end of output>";
            if (!el.equals(al)) {
                return "at line " + (i + 1) + ": QEMU '" + el + "', nicsim '" + al + "'";
            }
        }
        return "(no line differs)";
    }

    private static void keep(Path elf, Path source) {
        Path dir = Paths.get(System.getProperty("basedir", "."), "target", "rv-diff-failures");
        try {
            Files.createDirectories(dir);
            Files.copy(elf, dir.resolve(elf.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            if (source != null) {
                Files.copy(source, dir.resolve(source.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("keeping " + elf + " in " + dir, e);
        }
    }
}
