package dev.nicsim.microcode.firmware;

import dev.nicsim.riscv.ElfFormatException;
import dev.nicsim.riscv.ElfImage;
import dev.nicsim.riscv.ElfLoader;
import dev.nicsim.riscv.IoReasons;
import dev.nicsim.riscv.Isa;
import dev.nicsim.riscv.SymbolTable;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

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
    /** The {@code Tag_RISCV_arch} string of the ELF's {@code .riscv.attributes}, or null when it has none. */
    private final String arch;
    final long entryInit;
    final long entryEvent;

    private FirmwareImage(final Path path, final ElfImage elf) {
        this.path = path;
        this.elf = elf;
        arch = checkAbi(path, elf);
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
     *
     * @return the image's {@code Tag_RISCV_arch} string, or null when it has no attributes section
     */
    private static String checkAbi(final Path path, final ElfImage elf) {
        if (elf.xlen() != 64) {
            throw new FirmwareException(path + ": an ELF32 (RV32) image; nicsim firmware is RV64 (ELF64, -march=rv64imac"
                + " -mabi=lp64, firmware/ABI.md)");
        }
        final byte[] header;
        try {
            header = java.nio.file.Files.readAllBytes(path);
        } catch (final java.io.IOException e) {
            throw new FirmwareException(path + ": cannot read: " + IoReasons.why(e));
        }
        if (header.length < E_FLAGS_OFFSET_64 + 4) {
            throw new FirmwareException(path + ": the ELF header is cut short");
        }
        final int flags = (header[E_FLAGS_OFFSET_64] & 0xFF) | (header[E_FLAGS_OFFSET_64 + 1] & 0xFF) << 8
            | (header[E_FLAGS_OFFSET_64 + 2] & 0xFF) << 16 | (header[E_FLAGS_OFFSET_64 + 3] & 0xFF) << 24;
        final int floatAbi = flags & EF_RISCV_FLOAT_ABI;
        if (floatAbi != 0) {
            final String name = floatAbi == 2 ? "single-float" : floatAbi == 4 ? "double-float" : "quad-float";
            throw new FirmwareException(path + ": built for the " + name + " ABI (ELF flags 0x" + Integer.toHexString(flags)
                + "); nicsim firmware uses the soft-float ABI lp64 (-mabi=lp64, firmware/ABI.md)");
        }
        return archAttribute(header);
    }

    /** {@code SHT_RISCV_ATTRIBUTES} (RISC-V ELF psABI, "RISC-V specific section types"). */
    private static final int SHT_RISCV_ATTRIBUTES = 0x7000_0003;
    /** {@code Tag_RISCV_arch} (RISC-V ELF psABI, "Attributes"): an NTBS naming the ISA the code was built for. */
    private static final int TAG_RISCV_ARCH = 5;

    /**
     * Reads {@code Tag_RISCV_arch} from the {@code .riscv.attributes} section (RISC-V ELF psABI:
     * format version 'A', then sub-sections "length, vendor NTBS, tag 1 (file), length, attributes";
     * an attribute is a ULEB128 tag and a ULEB128 value for even tags, an NTBS for odd ones).
     *
     * @param file the whole ELF64 file (little-endian, checked by the loader)
     * @return the arch string, or null when there is no attributes section or no such tag
     */
    static String archAttribute(final byte[] file) {
        final ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        try {
            final long shoff = b.getLong(40);
            final int shentsize = b.getShort(58) & 0xFFFF;
            final int shnum = b.getShort(60) & 0xFFFF;
            for (int i = 0; i < shnum; i++) {
                final int sh = Math.toIntExact(shoff + (long) i * shentsize);
                if (b.getInt(sh + 4) != SHT_RISCV_ATTRIBUTES) {
                    continue;
                }
                final int start = Math.toIntExact(b.getLong(sh + 24));
                final int end = Math.toIntExact(start + b.getLong(sh + 32));
                if (end > file.length || file[start] != 'A') {
                    return null;
                }
                int p = start + 1;
                while (p + 4 <= end) {
                    final int subEnd = p + b.getInt(p);
                    int q = p + 4;
                    final int vendorStart = q;
                    while (q < subEnd && file[q] != 0) {
                        q++;
                    }
                    final boolean riscv = "riscv".equals(new String(file, vendorStart, q - vendorStart, StandardCharsets.US_ASCII));
                    q++;
                    if (riscv && q + 5 <= subEnd && file[q] == 1) { // Tag_file
                        final int attrEnd = q + b.getInt(q + 1);
                        q += 5;
                        while (q < attrEnd && q < subEnd) {
                            int tag = 0;
                            int shift = 0;
                            while ((file[q] & 0x80) != 0) {
                                tag |= (file[q++] & 0x7F) << shift;
                                shift += 7;
                            }
                            tag |= (file[q++] & 0x7F) << shift;
                            if ((tag & 1) != 0) {
                                final int strStart = q;
                                while (q < attrEnd && file[q] != 0) {
                                    q++;
                                }
                                final String value = new String(file, strStart, q - strStart, StandardCharsets.US_ASCII);
                                q++;
                                if (tag == TAG_RISCV_ARCH) {
                                    return value;
                                }
                            } else {
                                while ((file[q++] & 0x80) != 0) {
                                    // skip a ULEB128 value
                                }
                            }
                        }
                    }
                    if (subEnd <= p) {
                        return null;
                    }
                    p = subEnd;
                }
                return null;
            }
        } catch (final IndexOutOfBoundsException | ArithmeticException e) {
            return null; // a malformed attributes section names no extension
        }
        return null;
    }

    /**
     * The optional extensions nicsim models (Zbb, Zbs) that the image's {@code Tag_RISCV_arch}
     * names, i.e. the ones its code may use (a compiler given {@code -march=..._zbb} emits
     * {@code rev8}, {@code max}, {@code bseti}, ...).
     *
     * @return the extensions (empty when the image has no arch attribute or names neither)
     */
    public Set<Isa.Extension> extensionsUsed() {
        final Set<Isa.Extension> used = EnumSet.noneOf(Isa.Extension.class);
        if (arch != null) {
            for (final String part : arch.toLowerCase(Locale.ROOT).split("_")) {
                final String name = part.replaceFirst("[0-9]+(p[0-9]+)?$", "");
                for (final Isa.Extension x : Isa.Extension.values()) {
                    if (x.name().toLowerCase(Locale.ROOT).equals(name)) {
                        used.add(x);
                    }
                }
            }
        }
        return used;
    }

    /** @return the image's {@code Tag_RISCV_arch} string (e.g. {@code rv64i2p1_m2p0_..._zbb1p0_zbs1p0}), or null if none */
    public String arch() {
        return arch;
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
