package dev.nicsim.riscv;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Jazzer target (issue 23): any bytes as an ELF file are loaded or refused with a one-line
 * {@link ElfFormatException}; anything else escaping is a finding. {@code mvn test} replays the
 * committed corpus; {@code -Pfuzz} fuzzes (docs/reliability.md).
 */
class ElfJazzerTest {
    @FuzzTest(maxDuration = "7m", maxExecutions = 1_000_000)
    void anyBytesLoadOrFailWithOneLine(final byte[] elf) {
        try {
            ElfLoader.parse("fuzz.elf", elf);
        } catch (final ElfFormatException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
