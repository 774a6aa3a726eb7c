package dev.nicsim.cli.hostile;

import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 23, defects 7 and 4 (firmware): an image built for another ABI (ELF32, the double-float
 * calling convention) or whose runtime symbols (event entry, ABI version) lie outside its loaded
 * segments is refused at load with one line. Before the fix the first two loaded, the entry
 * outside was accepted, and the ABI version outside the image was an internal error. The images
 * are built here by riscv64-unknown-elf-gcc from a few lines that define the runtime's symbols.
 */
class FirmwareAbiTest {
    private static final String SOURCE = """
        #ifndef VERSION_ELSEWHERE
        unsigned int nicsim_pcc_abi_version = 1;
        #endif
        void doca_pcc_dev_user_algo(void) { }
        #ifndef ENTRY_ELSEWHERE
        void nicsim_pcc_event_entry(void) { for (;;) { } }
        #endif
        void nicsim_pcc_init_entry(void) { for (;;) { } }
        void _start(void) { for (;;) { } }
        """;

    @TempDir
    Path dir;

    private Path build(final String name, final String... flags) throws IOException, InterruptedException {
        Hostile.needFirmwareTools();
        final Path src = Files.writeString(dir.resolve("fw.c"), SOURCE);
        final Path elf = dir.resolve(name);
        final List<String> cmd = new ArrayList<>(List.of("riscv64-unknown-elf-gcc", "-O1", "-nostdlib", "-nostartfiles",
            "-Wl,-Ttext=0x80000000"));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of(src.toString(), "-o", elf.toString()));
        Hostile.exec(dir, cmd.toArray(new String[0]));
        return elf;
    }

    private static String refused(final Path elf) {
        return assertThrows(FirmwareException.class, () -> FirmwareProvider.load(elf, 1000)).getMessage();
    }

    @Test
    void anElf32BuildIsRefused() throws IOException, InterruptedException {
        final Path elf = build("rv32.elf", "-march=rv32imac", "-mabi=ilp32");
        assertEquals(elf + ": an ELF32 (RV32) image; nicsim firmware is RV64 (ELF64, -march=rv64imac -mabi=lp64,"
            + " firmware/ABI.md)", refused(elf));
    }

    @Test
    void aDoubleFloatAbiBuildIsRefused() throws IOException, InterruptedException {
        final Path elf = build("lp64d.elf", "-march=rv64imafdc", "-mabi=lp64d");
        assertEquals(elf + ": built for the double-float ABI (ELF flags 0x5); nicsim firmware uses the soft-float"
            + " ABI lp64 (-mabi=lp64, firmware/ABI.md)", refused(elf));
    }

    @Test
    void anEventEntryOutsideTheImageIsRefused() throws IOException, InterruptedException {
        final Path elf = build("entry.elf", "-march=rv64imac", "-mabi=lp64", "-DENTRY_ELSEWHERE",
            "-Wl,--defsym=nicsim_pcc_event_entry=0x1000");
        assertEquals(elf + ": nicsim_pcc_event_entry at 0x1000 lies outside the image's executable segments",
            refused(elf));
    }

    @Test
    void anAbiVersionOutsideTheImageIsRefused() throws IOException, InterruptedException {
        final Path elf = build("version.elf", "-march=rv64imac", "-mabi=lp64", "-DVERSION_ELSEWHERE",
            "-Wl,--defsym=nicsim_pcc_abi_version=0x7ff00000");
        assertEquals(elf + ": nicsim_pcc_abi_version at 0x7ff00000 lies outside the image's loaded segments",
            refused(elf));
    }
}
