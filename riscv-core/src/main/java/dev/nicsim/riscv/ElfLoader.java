package dev.nicsim.riscv;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Reads ELF32/ELF64 little-endian RISC-V executables (System V gABI, "ELF-64 Object File
 * Format" 1.5, and the RISC-V ELF psABI: {@code e_machine} 243): the PT_LOAD segments, the entry
 * point and the symbol table (SHT_SYMTAB with its string table).
 *
 * <p>Every defect is reported as an {@link ElfFormatException} with one line naming the file and
 * the field: not an ELF, a bad class byte, a class byte the header disagrees with ({@code e_ehsize}
 * not 52 for ELF32 or 64 for ELF64; when it is the other class's size the message says "wrong ELF
 * class"), big-endian, not RISC-V, not an executable, truncated
 * headers or segment data, {@code p_filesz > p_memsz}, a segment above
 * {@link #MAX_SEGMENT_BYTES} or past the end of the address space, overlapping segments, no
 * PT_LOAD segment. No other exception escapes for any input bytes.
 *
 * <p>Thread-safety: stateless; all methods are safe to call from any thread.
 */
public final class ElfLoader {
    /** Largest PT_LOAD segment accepted, in bytes (256 MiB): a bigger one is "huge", bad input. */
    public static final long MAX_SEGMENT_BYTES = 256L << 20;
    /** EM_RISCV. */
    public static final int EM_RISCV = 243;
    private static final int PT_LOAD = 1;
    private static final int SHT_SYMTAB = 2;

    private ElfLoader() {
    }

    /**
     * Loads an ELF file.
     *
     * @param file path of the file
     * @return the image
     * @throws ElfFormatException when the file cannot be read or is not a runnable RISC-V ELF
     */
    public static ElfImage load(final Path file) throws ElfFormatException {
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (final NoSuchFileException e) {
            throw new ElfFormatException(file + ": no such file");
        } catch (final IOException | OutOfMemoryError e) {
            throw new ElfFormatException(file + ": cannot read: " + (e instanceof IOException io ? IoReasons.why(io) : "too large for memory"));
        }
        return parse(file.toString(), bytes);
    }

    /**
     * Parses ELF bytes.
     *
     * @param name  name for messages (file path)
     * @param bytes the whole file
     * @return the image
     * @throws ElfFormatException when the bytes are not a runnable RISC-V ELF
     */
    public static ElfImage parse(final String name, final byte[] bytes) throws ElfFormatException {
        try {
            return new Parser(name, bytes).parse();
        } catch (final IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new ElfFormatException(name + ": truncated or malformed ELF (" + e.getMessage() + ")");
        }
    }

    private static final class Parser {
        private final String name;
        private final byte[] bytes;
        private final ByteBuffer buf;
        private boolean is64;

        Parser(final String name, final byte[] bytes) {
            this.name = name;
            this.bytes = bytes;
            this.buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }

        private ElfFormatException bad(final String what) {
            return new ElfFormatException(name + ": " + what);
        }

        ElfImage parse() throws ElfFormatException {
            if (bytes.length < 4 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F') {
                throw bad("not an ELF file (no \\x7fELF magic)");
            }
            if (bytes.length < 16) {
                throw bad("truncated: " + bytes.length + " bytes, shorter than the ELF identification (16 bytes)");
            }
            final int cls = bytes[4] & 0xff;
            if (cls != 1 && cls != 2) {
                throw bad("bad ELF class " + cls + " (EI_CLASS must be 1 for ELF32 or 2 for ELF64)");
            }
            is64 = cls == 2;
            final int data = bytes[5] & 0xff;
            if (data == 2) {
                throw bad("big-endian ELF (EI_DATA=2); RISC-V executables are little-endian");
            }
            if (data != 1) {
                throw bad("bad EI_DATA " + data + " (must be 1, little-endian)");
            }
            final int ehsize = is64 ? 64 : 52;
            if (bytes.length < ehsize) {
                throw bad("truncated: " + bytes.length + " bytes, shorter than the ELF" + (is64 ? 64 : 32)
                    + " header (" + ehsize + " bytes)");
            }
            final int declared = u16(is64 ? 52 : 40);
            if (declared != ehsize) {
                // the class byte and the header disagree: say which class the header's own size names
                final int other = bytes.length >= (is64 ? 42 : 54) ? u16(is64 ? 40 : 52) : -1;
                throw bad(other == (is64 ? 52 : 64)
                    ? "wrong ELF class: EI_CLASS " + cls + " says ELF" + (is64 ? 64 : 32) + ", but the header is an ELF"
                        + (is64 ? 32 : 64) + " header (e_ehsize " + other + " at offset " + (is64 ? 40 : 52) + ")"
                    : "e_ehsize " + declared + " is not the ELF" + (is64 ? 64 : 32) + " header size " + ehsize
                        + " (EI_CLASS " + cls + "): a wrong class byte or a corrupt header");
            }
            final int type = u16(16);
            final int machine = u16(18);
            if (machine != EM_RISCV) {
                throw bad("not a RISC-V executable (e_machine=" + machine + ", RISC-V is " + EM_RISCV + ")");
            }
            if (type != 2) {
                throw bad("not an executable (e_type=" + type + ", must be 2 ET_EXEC)");
            }
            final long entry = addr(is64 ? u64(24) : u32(24));
            final long phoff = is64 ? u64(32) : u32(28);
            final long shoff = is64 ? u64(40) : u32(32);
            final int phentsize = u16(is64 ? 54 : 42);
            final int phnum = u16(is64 ? 56 : 44);
            final int shentsize = u16(is64 ? 58 : 46);
            final int shnum = u16(is64 ? 60 : 48);
            final int wantPh = is64 ? 56 : 32;
            if (phnum == 0) {
                throw bad("no loadable segment (e_phnum=0)");
            }
            checkTable("program header table", "e_phentsize", phoff, phentsize, wantPh, phnum);
            final List<ElfImage.Segment> segs = new ArrayList<>();
            for (int i = 0; i < phnum; i++) {
                final int p = (int) (phoff + (long) i * phentsize);
                if (u32(p) != PT_LOAD) {
                    continue;
                }
                final long off;
                final long vaddr;
                final long filesz;
                final long memsz;
                final int flags;
                if (is64) {
                    flags = (int) u32(p + 4);
                    off = u64(p + 8);
                    vaddr = u64(p + 16);
                    filesz = u64(p + 32);
                    memsz = u64(p + 40);
                } else {
                    off = u32(p + 4);
                    vaddr = u32(p + 8);
                    filesz = u32(p + 16);
                    memsz = u32(p + 20);
                    flags = (int) u32(p + 24);
                }
                if (memsz == 0) {
                    continue;
                }
                if (Long.compareUnsigned(filesz, memsz) > 0) {
                    throw bad(String.format(Locale.ROOT, "segment %d: p_filesz %d is larger than p_memsz %d", i, filesz, memsz));
                }
                if (Long.compareUnsigned(memsz, MAX_SEGMENT_BYTES) > 0) {
                    throw bad(String.format(Locale.ROOT, "segment %d at 0x%x: p_memsz %s bytes is above the %d MiB limit",
                        i, vaddr, Long.toUnsignedString(memsz), MAX_SEGMENT_BYTES >> 20));
                }
                final long limit = is64 ? Long.MAX_VALUE : 1L << 32;
                if (vaddr < 0 || vaddr > limit - memsz) {
                    throw bad(String.format(Locale.ROOT, "segment %d at 0x%x: p_vaddr + p_memsz (%d bytes) is past the end of the address space",
                        i, vaddr, memsz));
                }
                checkRange("segment " + i + " data (p_offset + p_filesz)", off, filesz);
                final byte[] d = new byte[(int) filesz];
                System.arraycopy(bytes, (int) off, d, 0, (int) filesz);
                segs.add(new ElfImage.Segment(vaddr, memsz, d, flags));
            }
            if (segs.isEmpty()) {
                throw bad("no loadable segment (no PT_LOAD with p_memsz > 0)");
            }
            segs.sort(Comparator.comparingLong(ElfImage.Segment::address));
            for (int i = 1; i < segs.size(); i++) {
                final ElfImage.Segment a = segs.get(i - 1);
                final ElfImage.Segment b = segs.get(i);
                if (a.address() + a.memBytes() > b.address()) {
                    throw bad(String.format(Locale.ROOT, "segments overlap: [0x%x, 0x%x) and [0x%x, 0x%x)",
                        a.address(), a.address() + a.memBytes(), b.address(), b.address() + b.memBytes()));
                }
            }
            final SymbolTable symbols = shnum == 0 || shoff == 0 ? SymbolTable.EMPTY : symbols(shoff, shentsize, shnum);
            return new ElfImage(name, is64 ? 64 : 32, entry, List.copyOf(segs), symbols);
        }

        private SymbolTable symbols(final long shoff, final int shentsize, final int shnum) throws ElfFormatException {
            final int want = is64 ? 64 : 40;
            checkTable("section header table", "e_shentsize", shoff, shentsize, want, shnum);
            final List<SymbolTable.Symbol> out = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                final int s = (int) (shoff + (long) i * shentsize);
                if (u32(s + 4) != SHT_SYMTAB) {
                    continue;
                }
                final long off = is64 ? u64(s + 24) : u32(s + 16);
                final long size = is64 ? u64(s + 32) : u32(s + 20);
                final long link = u32(is64 ? s + 40 : s + 24);
                checkRange("symbol table (section " + i + ")", off, size);
                if (link >= shnum) {
                    throw bad("symbol table (section " + i + "): sh_link " + link + " is not a section");
                }
                final int l = (int) (shoff + link * shentsize);
                final long stroff = is64 ? u64(l + 24) : u32(l + 16);
                final long strsize = is64 ? u64(l + 32) : u32(l + 20);
                checkRange("string table (section " + link + ")", stroff, strsize);
                final int entsize = is64 ? 24 : 16;
                for (long e = off; e + entsize <= off + size; e += entsize) {
                    final int p = (int) e;
                    final long nameOff = u32(p);
                    final int info = bytes[p + (is64 ? 4 : 12)] & 0xff;
                    final int shndx = u16(p + (is64 ? 6 : 14));
                    final long value = is64 ? u64(p + 8) : u32(p + 4);
                    final long sz = is64 ? u64(p + 16) : u32(p + 8);
                    final int stType = info & 0xf;
                    final int bind = info >>> 4;
                    if (stType > 2 || shndx == 0 || nameOff == 0 || nameOff >= strsize) {
                        continue;
                    }
                    final String n = cString((int) (stroff + nameOff), (int) (stroff + strsize));
                    if (n.isEmpty() || n.startsWith("$") || n.startsWith(".L")) {
                        continue;
                    }
                    out.add(new SymbolTable.Symbol(n, addr(value), sz, bind == 1 || bind == 2, bind == 2));
                }
            }
            return new SymbolTable(out);
        }

        private long addr(final long v) {
            return is64 ? v : v & 0xffffffffL;
        }

        private String cString(final int from, final int end) {
            int e = from;
            while (e < end && bytes[e] != 0) {
                e++;
            }
            return new String(bytes, from, e - from, java.nio.charset.StandardCharsets.ISO_8859_1);
        }

        /**
         * Checks a header table (program or section headers): entries at least {@code minEntryBytes}
         * long, and the whole table inside the file.
         *
         * @param what the table's name for the error message
         * @param entSizeField the ELF header field giving the entry size (e_phentsize, e_shentsize)
         * @param off the table's file offset in bytes
         * @param entryBytes the entry size the ELF header declares
         * @param minEntryBytes the smallest entry size this ELF class allows
         * @param entries the number of entries
         * @throws ElfFormatException one line: entry size too small, or table past the end of the file
         */
        private void checkTable(final String what, final String entSizeField, final long off, final int entryBytes,
                                final int minEntryBytes, final int entries) throws ElfFormatException {
            if (entryBytes < minEntryBytes) {
                throw bad("bad " + entSizeField + " " + entryBytes + " (at least " + minEntryBytes + ")");
            }
            checkRange(what, off, (long) entryBytes * entries);
        }

        private void checkRange(final String what, final long off, final long len) throws ElfFormatException {
            if (off < 0 || len < 0 || off > bytes.length || len > bytes.length - off) {
                throw bad(String.format(Locale.ROOT, "truncated: %s at offset %s, %s bytes, extends past the end of the file (%d bytes)",
                    what, Long.toUnsignedString(off), Long.toUnsignedString(len), bytes.length));
            }
        }

        private int u16(final int off) {
            return buf.getShort(off) & 0xffff;
        }

        private long u32(final int off) {
            return buf.getInt(off) & 0xffffffffL;
        }

        private long u64(final int off) {
            return buf.getLong(off);
        }
    }
}
