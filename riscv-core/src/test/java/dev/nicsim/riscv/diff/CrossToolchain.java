package dev.nicsim.riscv.diff;

import dev.nicsim.testsupport.SharedFiles;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The RISC-V cross compiler and QEMU user mode as the differential tests use them: finding them on
 * {@code PATH}, building the test programs of {@code src/test/c} for one target, and running an
 * ELF under {@code qemu-riscv32}/{@code qemu-riscv64}.
 *
 * <p>Tools: Debian bookworm's {@code gcc-riscv64-unknown-elf} 12.2 (multilibs rv32im,
 * rv32imac/ilp32, rv64im, rv64imac/lp64: the {@code -march} string must match one exactly or the
 * driver links the default rv64imafdc libgcc; the Zbb/Zbs targets therefore name their
 * multilib's libgcc.a) and {@code qemu-user} 7.2. Programs are linked with
 * {@code -nostdlib -lgcc} against the freestanding runtime in {@code src/test/c/rt} and the linker
 * script {@code rt/link.ld} (code at 0x10000, data on the next page).
 *
 * <p>Thread-safety: stateless; concurrent builds must use different output paths.
 */
final class CrossToolchain {

    /** The cross compiler driver (also assembles and links). */
    static final String GCC = "riscv64-unknown-elf-gcc";
    /** QEMU user mode for ELF32 RISC-V programs. */
    static final String QEMU32 = "qemu-riscv32";
    /** QEMU user mode for ELF64 RISC-V programs. */
    static final String QEMU64 = "qemu-riscv64";

    /** Wall-clock limit of one compiler or QEMU process, in seconds. */
    static final long PROCESS_TIMEOUT_SECONDS = 60;

    /** The four targets the issue names, each one of the toolchain's multilibs. */
    enum Arch {
        /** RV32 with M, ilp32. */
        RV32IM("rv32im", "ilp32", 32, false),
        /** RV32 with M, A and C, ilp32. */
        RV32IMAC("rv32imac", "ilp32", 32, true),
        /** RV64 with M, lp64. */
        RV64IM("rv64im", "lp64", 64, false),
        /** RV64 with M, A and C, lp64. */
        RV64IMAC("rv64imac", "lp64", 64, true),
        /** RV32IMAC with Zbb and Zbs (linked with the rv32imac multilib's libgcc). */
        RV32IMAC_ZBB_ZBS("rv32imac_zbb_zbs", "ilp32", 32, true),
        /** RV64IMAC with Zbb and Zbs (linked with the rv64imac multilib's libgcc). */
        RV64IMAC_ZBB_ZBS("rv64imac_zbb_zbs", "lp64", 64, true);

        /** The {@code -march} value, e.g. {@code rv32imac}. */
        final String march;
        /** The {@code -mabi} value. */
        final String mabi;
        /** Register width in bits: 32 or 64. */
        final int xlen;
        /** Whether the target has the A extension. */
        final boolean atomics;

        Arch(String march, String mabi, int xlen, boolean atomics) {
            this.march = march;
            this.mabi = mabi;
            this.xlen = xlen;
            this.atomics = atomics;
        }

        /** @return the QEMU user-mode binary for this XLEN */
        String qemu() {
            return xlen == 64 ? QEMU64 : QEMU32;
        }

        /** @return whether the target has Zbb and Zbs */
        boolean bitManipulation() {
            return march.endsWith("_zbb_zbs");
        }

        /** @return the multilib whose libgcc it links (the toolchain has none with Zbb) */
        String multilib() {
            return march.replace("_zbb_zbs", "");
        }

        /**
         * @return the QEMU command up to the ELF: with Zbb/Zbs, {@code -cpu rv64,zbb=true,zbs=true}
         *     (QEMU 7.2's CPU properties; its default rv64 CPU has neither)
         */
        List<String> qemuCommand() {
            return bitManipulation() ? List.of(qemu(), "-cpu", "rv" + xlen + ",zbb=true,zbs=true") : List.of(qemu());
        }
    }

    /** What a program did: its stdout bytes and its exit status (0-255). */
    record Outcome(byte[] stdout, int exitStatus) {
    }

    private CrossToolchain() {
    }

    /**
     * @return the first of {@link #GCC}, {@link #QEMU32}, {@link #QEMU64} that is not an executable
     *     file in a {@code PATH} directory, or empty when all three are there
     */
    static Optional<String> missingTool() {
        for (String tool : new String[] {GCC, QEMU32, QEMU64}) {
            if (!onPath(tool)) {
                return Optional.of(tool);
            }
        }
        return Optional.empty();
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Paths.get(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The C sources: {@code src/test/c} of the riscv-core module, found from the {@code basedir}
     * property Maven's surefire sets, else from the working directory (the module or the repository
     * root).
     *
     * @return the directory holding {@code rt/} and {@code progs/}
     * @throws IllegalStateException if neither place has it
     */
    static Path sourceDir() {
        List<Path> candidates = new ArrayList<>();
        String basedir = System.getProperty("basedir");
        if (basedir != null) {
            candidates.add(Paths.get(basedir, "src", "test", "c"));
        }
        candidates.add(Paths.get("src", "test", "c"));
        candidates.add(Paths.get("riscv-core", "src", "test", "c"));
        candidates.add(SharedFiles.root().resolve("riscv-core/src/test/c")); // from another module's tests
        for (Path p : candidates) {
            if (Files.isRegularFile(p.resolve("rt").resolve("crt0.S"))) {
                return p.toAbsolutePath();
            }
        }
        throw new IllegalStateException("riscv-core/src/test/c/rt/crt0.S not found from " + candidates);
    }

    /**
     * Compiles and links one C program with the start-up code and the runtime. A program
     * {@code progs/NAME.c} that needs its own memory layout has {@code rt/link-NAME.ld}
     * (e.g. {@code smc}, with a writable and executable segment); the others use {@code rt/link.ld}.
     *
     * @param arch the target
     * @param source the program's {@code .c} file
     * @param elf where to write the executable
     * @throws AssertionError with the compiler's output if it fails
     */
    static void buildC(Arch arch, Path source, Path elf) {
        buildC(arch, source, elf, List.of());
    }

    /**
     * {@link #buildC(Arch, Path, Path)} with more compiler flags (e.g. {@code -I} of another
     * include directory).
     *
     * @param arch the target
     * @param source the program's {@code .c} file
     * @param elf where to write the executable
     * @param flags extra compiler flags, after the standard ones
     * @throws AssertionError with the compiler's output if it fails
     */
    static void buildC(Arch arch, Path source, Path elf, List<String> flags) {
        Path rt = sourceDir().resolve("rt");
        String name = source.getFileName().toString().replaceFirst("\\.c$", "");
        Path own = rt.resolve("link-" + name + ".ld");
        link(arch, elf, Files.isRegularFile(own) ? own : rt.resolve("link.ld"), flags,
                rt.resolve("crt0.S"), rt.resolve("rt.c"), source);
    }

    /**
     * Assembles a generated random program and links it with the runtime and the register dump.
     *
     * @param arch the target
     * @param asm the generated {@code .S} file (it has its own {@code _start})
     * @param elf where to write the executable
     * @throws AssertionError with the compiler's output if it fails
     */
    static void buildRandom(Arch arch, Path asm, Path elf) {
        Path rt = sourceDir().resolve("rt");
        link(arch, elf, rt.resolve("link.ld"), List.of(), asm, rt.resolve("rt.c"), rt.resolve("regdump.c"));
    }

    private static void link(Arch arch, Path elf, Path linkerScript, List<String> flags, Path... inputs) {
        Path rt = sourceDir().resolve("rt");
        List<String> cmd = new ArrayList<>(List.of(GCC, "-march=" + arch.march, "-mabi=" + arch.mabi,
                "-O2", "-ffreestanding", "-fno-builtin", "-fno-tree-loop-distribute-patterns",
                "-nostdlib", "-static", "-Wall", "-Wl,--no-warn-rwx-segments",
                "-I" + rt, "-T", linkerScript.toString(), "-o", elf.toString()));
        cmd.addAll(flags);
        for (Path p : inputs) {
            cmd.add(p.toString());
        }
        if (arch.bitManipulation()) {
            // -march=..._zbb_zbs matches no multilib, so the driver would pick the default one
            cmd.add(libgcc(arch));
        } else {
            cmd.add("-lgcc");
        }
        Path log = elf.resolveSibling(elf.getFileName() + ".gcc.log");
        Outcome o = run(cmd, log);
        if (o.exitStatus() != 0) {
            throw new AssertionError("cross build failed (" + String.join(" ", cmd) + "):\n" + readLog(log));
        }
    }

    /** @return the path of the libgcc.a of the target's multilib ({@code -print-libgcc-file-name}) */
    private static String libgcc(Arch arch) {
        Outcome o = run(List.of(GCC, "-march=" + arch.multilib(), "-mabi=" + arch.mabi, "-print-libgcc-file-name"), null);
        String path = new String(o.stdout(), StandardCharsets.UTF_8).strip();
        if (o.exitStatus() != 0 || !path.contains(arch.multilib())) {
            throw new AssertionError("no " + arch.multilib() + " multilib libgcc: '" + path + "'");
        }
        return path;
    }

    /**
     * Runs an ELF under QEMU user mode.
     *
     * @param arch selects {@code qemu-riscv32} or {@code qemu-riscv64}
     * @param elf the executable
     * @return its stdout and exit status
     * @throws AssertionError if QEMU does not finish within {@link #PROCESS_TIMEOUT_SECONDS}
     */
    static Outcome runQemu(Arch arch, Path elf) {
        List<String> cmd = new ArrayList<>(arch.qemuCommand());
        cmd.add(elf.toString());
        return run(cmd, null);
    }

    /**
     * Runs a command with stdout captured through a file (so a process that never ends cannot
     * block the reader) and stderr appended to {@code stderrLog} (discarded when null; gcc's
     * diagnostics go there, merged with its stdout).
     */
    private static Outcome run(List<String> cmd, Path stderrLog) {
        Path stdout = null;
        try {
            stdout = Files.createTempFile("rvdiff-", ".out");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(stdout.toFile());
            if (stderrLog != null) {
                pb.redirectErrorStream(true).redirectOutput(stderrLog.toFile());
            } else {
                pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            }
            Process p = pb.start();
            if (!p.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", cmd) + ": no exit within "
                        + PROCESS_TIMEOUT_SECONDS + " s");
            }
            return new Outcome(Files.readAllBytes(stdout), p.exitValue());
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(String.join(" ", cmd) + ": interrupted", e);
        } finally {
            if (stdout != null) {
                try {
                    Files.deleteIfExists(stdout);
                } catch (IOException ignored) {
                    // a leftover temp file is harmless
                }
            }
        }
    }

    private static String readLog(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no compiler output: " + e.getMessage() + ")";
        }
    }
}
