package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.Isa;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped firmware is built for RV64IMAC + Zbb + Zbs (firmware/Makefile's default FW_MARCH, as
 * the DPA compiler's target): its arch attribute says so, bf3-dpa (which executes both) runs it,
 * and e31 and ibex, which trap Zbb/Zbs as illegal instructions, refuse it at load with one line
 * that says why and what to do, instead of faulting on every event.
 */
class FirmwareExtensionsTest {
    /** {@code riscv64-unknown-elf-readelf -A firmware/bin/dcqcn.elf}, GCC 12.2 / binutils 2.40. */
    private static final String SHIPPED_ARCH = "rv64i2p1_m2p0_a2p1_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zbb1p0_zbs1p0";

    @Test
    void shippedElfsDeclareZbbAndZbs() {
        for (final String f : new String[] {"dcqcn.elf", "dctcp.elf", "ldcp.elf", "ldcp_pcc.elf", "rtt_template.elf",
            "hello_cc.elf", "test/mem_bound.elf"}) {
            final FirmwareImage image = FirmwareImage.load(FirmwareDifferentialTest.elf(f));
            assertEquals(SHIPPED_ARCH, image.arch(), f);
            assertEquals(EnumSet.of(Isa.Extension.ZBB, Isa.Extension.ZBS), image.extensionsUsed(), f);
        }
    }

    @Test
    void e31AndIbexRefuseTheZbbElfWithOneLine() {
        final Path elf = FirmwareDifferentialTest.elf("dcqcn.elf");
        for (final CycleModel m : new CycleModel[] {CycleModel.E31, CycleModel.IBEX}) {
            final FirmwareException e = assertThrows(FirmwareException.class, () -> FirmwareProvider.load(elf, 1000, m));
            assertEquals(elf + ": built for " + SHIPPED_ARCH + " (its .riscv.attributes); model " + m.name()
                + " does not execute zbb, zbs (it traps them as illegal instructions): use a model with extensions"
                + " [zbb, zbs] (bf3-dpa) or rebuild for plain RV64IMAC (make -C firmware FW_MARCH=rv64imac,"
                + " firmware/README.md)", e.getMessage());
            assertTrue(!e.getMessage().contains("\n"));
        }
        // one extension missing is named alone
        final FirmwareException zbsOnly = assertThrows(FirmwareException.class,
            () -> FirmwareProvider.load(elf, 1000, CycleModel.E31.withExtensions(EnumSet.of(Isa.Extension.ZBB))));
        assertTrue(zbsOnly.getMessage().contains("does not execute zbs ("), zbsOnly.getMessage());
        // with both it loads (e31's timing, one thread per core), as on bf3-dpa
        FirmwareProvider.load(elf, 1000, CycleModel.E31.withExtensions(EnumSet.allOf(Isa.Extension.class)));
        FirmwareProvider.load(elf, 1000, CycleModel.bf3Dpa());
    }

    /** A plain RV64IMAC image (the hand-built fixture) names neither extension and loads on e31. */
    @Test
    void plainRv64imacLoadsOnE31() throws Exception {
        final Path fixture = FirmwareAlgorithmTest.fixture("test-algo.elf");
        final FirmwareImage image = FirmwareImage.load(fixture);
        assertEquals(Set.of(), image.extensionsUsed());
        FirmwareProvider.load(fixture, 1000, CycleModel.E31);
        // an image without a .riscv.attributes section (the section table cut off) names nothing
        final byte[] b = Files.readAllBytes(FirmwareDifferentialTest.elf("dcqcn.elf"));
        final byte[] noSections = b.clone();
        noSections[60] = 0; // e_shnum = 0
        noSections[61] = 0;
        assertNull(FirmwareImage.archAttribute(noSections));
        assertEquals(SHIPPED_ARCH, FirmwareImage.archAttribute(b));
    }
}
