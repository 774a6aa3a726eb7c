package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.ElfFormatException;
import dev.nicsim.riscv.ElfImage;
import dev.nicsim.riscv.ElfLoader;
import dev.nicsim.riscv.SymbolTable;

import java.nio.file.Path;

/**
 * A firmware ELF checked against the runtime contract ({@link FirmwareLayout}): a RISC-V
 * executable defining {@code doca_pcc_dev_user_algo}, the runtime's two entries and its ABI version.
 *
 * <p>Thread-safety: immutable after loading; shared by every NIC that runs it.
 */
public final class FirmwareImage {
    private final Path path;
    private final ElfImage elf;
    final long entryInit;
    final long entryEvent;

    private FirmwareImage(final Path path, final ElfImage elf) {
        this.path = path;
        this.elf = elf;
        final SymbolTable s = elf.symbols();
        if (s.find(FirmwareLayout.USER_ALGO) == null && s.find(FirmwareLayout.NP_HANDLER) == null) {
            throw new FirmwareException(path + ": no " + FirmwareLayout.USER_ALGO
                + " (not DOCA PCC firmware, or its symbols were stripped)");
        }
        entryInit = need(FirmwareLayout.ENTRY_INIT);
        entryEvent = need(FirmwareLayout.ENTRY_EVENT);
        need(FirmwareLayout.ABI_VERSION_SYMBOL);
    }

    /**
     * Checks the ABI version the image was built for.
     *
     * @param version the value of {@code nicsim_pcc_abi_version}
     * @throws FirmwareException when it is not {@link FirmwareLayout#ABI_VERSION}
     */
    void checkVersion(final long version) {
        if (version != FirmwareLayout.ABI_VERSION) {
            throw new FirmwareException(path + ": firmware ABI version " + version + ", this emulator speaks version "
                + FirmwareLayout.ABI_VERSION + " (firmware/ABI.md)");
        }
    }

    private long need(final String name) {
        final SymbolTable.Symbol sym = elf.symbols().find(name);
        if (sym == null) {
            throw new FirmwareException(path + ": no " + name + " (not linked with the nicsim firmware runtime, firmware/ABI.md)");
        }
        return sym.address();
    }

    /**
     * Loads and checks an ELF.
     *
     * @param path the file
     * @return the image
     * @throws FirmwareException one line: not readable, not a RISC-V ELF, or missing a symbol
     */
    public static FirmwareImage load(final Path path) {
        final ElfImage elf;
        try {
            elf = ElfLoader.load(path);
        } catch (final ElfFormatException e) {
            throw new FirmwareException(e.getMessage());
        }
        return new FirmwareImage(path, elf);
    }

    /** @return the file */
    public Path path() {
        return path;
    }

    /** @return the ELF */
    public ElfImage elf() {
        return elf;
    }

    /**
     * An optional symbol's address.
     *
     * @param name symbol
     * @return address, or -1 when absent
     */
    long symbol(final String name) {
        final SymbolTable.Symbol sym = elf.symbols().find(name);
        return sym == null ? -1 : sym.address();
    }

    /** @return whether the ELF defines {@code doca_pcc_dev_user_algo} (a reaction-point program) */
    public boolean hasUserAlgo() {
        return symbol(FirmwareLayout.USER_ALGO) > 0;
    }

    /** @return whether the ELF defines {@code doca_pcc_dev_np_user_packet_handler} (a notification-point program) */
    public boolean hasNpHandler() {
        return symbol(FirmwareLayout.NP_HANDLER) > 0;
    }

    /** @return whether the ELF defines {@code doca_pcc_dev_user_mailbox_handle} */
    public boolean hasMailboxHandler() {
        return symbol(FirmwareLayout.MAILBOX_HANDLER) > 0;
    }

    /** @return whether the ELF defines {@code doca_pcc_dev_user_port_info_changed} */
    public boolean hasPortInfoHandler() {
        return symbol(FirmwareLayout.PORT_INFO_HANDLER) > 0;
    }

    /**
     * Names an address.
     *
     * @param address address
     * @return {@code symbol+0xoff} or {@code ?}
     */
    public String describe(final long address) {
        return elf.symbols().describe(address);
    }
}
