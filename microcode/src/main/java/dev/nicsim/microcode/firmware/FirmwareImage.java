package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.ElfFormatException;
import dev.nicsim.riscv.ElfImage;
import dev.nicsim.riscv.ElfLoader;
import dev.nicsim.riscv.SymbolTable;

import java.nio.file.Path;

/**
 * A firmware ELF checked against the runtime contract ({@link FirmwareLayout}): an RV64 soft-float
 * (lp64) RISC-V executable defining {@code doca_pcc_dev_user_algo}, the runtime's two entries (in
 * an executable segment) and its ABI version (in a loaded segment).
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
        checkAbi(path, elf);
        final SymbolTable s = elf.symbols();
        if (s.find(FirmwareLayout.USER_ALGO) == null && s.find(FirmwareLayout.NP_HANDLER) == null) {
            throw new FirmwareException(path + ": no " + FirmwareLayout.USER_ALGO
                + " (not DOCA PCC firmware, or its symbols were stripped)");
        }
        entryInit = inside(FirmwareLayout.ENTRY_INIT, need(FirmwareLayout.ENTRY_INIT), 2, true);
        entryEvent = inside(FirmwareLayout.ENTRY_EVENT, need(FirmwareLayout.ENTRY_EVENT), 2, true);
        inside(FirmwareLayout.ABI_VERSION_SYMBOL, need(FirmwareLayout.ABI_VERSION_SYMBOL), 4, false);
    }

    /** ELF64 {@code e_flags} offset (ELF specification, ELF64 header). */
    private static final int E_FLAGS_OFFSET_64 = 48;
    /** RISC-V {@code EF_RISCV_FLOAT_ABI} mask of {@code e_flags} (RISC-V ELF psABI): 0 soft, 2 single, 4 double, 6 quad. */
    private static final int EF_RISCV_FLOAT_ABI = 0x6;

    /**
     * Refuses an image built for another ABI than the runtime's (firmware/ABI.md: RV64, lp64,
     * soft-float): an ELF32 image, or one whose {@code e_flags} name a hardware floating-point
     * calling convention (RISC-V ELF psABI, {@code EF_RISCV_FLOAT_ABI}).
     */
    private static void checkAbi(final Path path, final ElfImage elf) {
        if (elf.xlen() != 64) {
            throw new FirmwareException(path + ": an ELF32 (RV32) image; nicsim firmware is RV64 (ELF64, -march=rv64imac"
                + " -mabi=lp64, firmware/ABI.md)");
        }
        final byte[] header = new byte[E_FLAGS_OFFSET_64 + 4];
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(path)) {
            if (in.readNBytes(header, 0, header.length) != header.length) {
                throw new FirmwareException(path + ": the ELF header is cut short");
            }
        } catch (final java.io.IOException e) {
            throw new FirmwareException(path + ": cannot read: " + e.getMessage());
        }
        final int flags = (header[E_FLAGS_OFFSET_64] & 0xFF) | (header[E_FLAGS_OFFSET_64 + 1] & 0xFF) << 8
            | (header[E_FLAGS_OFFSET_64 + 2] & 0xFF) << 16 | (header[E_FLAGS_OFFSET_64 + 3] & 0xFF) << 24;
        final int floatAbi = flags & EF_RISCV_FLOAT_ABI;
        if (floatAbi != 0) {
            final String name = floatAbi == 2 ? "single-float" : floatAbi == 4 ? "double-float" : "quad-float";
            throw new FirmwareException(path + ": built for the " + name + " ABI (ELF flags 0x" + Integer.toHexString(flags)
                + "); nicsim firmware uses the soft-float ABI lp64 (-mabi=lp64, firmware/ABI.md)");
        }
    }

    /**
     * Checks that a runtime symbol lies inside the image, so the emulator never jumps to or reads
     * from memory the image does not hold.
     *
     * @param name       the symbol
     * @param address    its address
     * @param bytes      bytes it must cover
     * @param executable whether it must lie in an executable segment (PF_X)
     * @return address
     * @throws FirmwareException naming the symbol when it does not
     */
    private long inside(final String name, final long address, final long bytes, final boolean executable) {
        for (final ElfImage.Segment seg : elf.segments()) {
            if (Long.compareUnsigned(address, seg.address()) >= 0
                && Long.compareUnsigned(address + bytes, seg.address() + seg.memBytes()) <= 0
                && (!executable || (seg.flags() & 1) != 0)) {
                return address;
            }
        }
        throw new FirmwareException(path + ": " + name + " at 0x" + Long.toHexString(address) + " lies outside the image's "
            + (executable ? "executable" : "loaded") + " segments");
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
     * @throws FirmwareException one line: not readable, not a RISC-V ELF, built for another ABI (ELF32,
     *                           hardware-float), missing a symbol or one outside the image
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
