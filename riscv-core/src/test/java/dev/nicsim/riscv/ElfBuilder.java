package dev.nicsim.riscv;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Writes minimal ELF32/ELF64 little-endian executables for tests (PT_LOAD segments and a symbol table). */
final class ElfBuilder {
    private final boolean is64;
    private long entry;
    private int machine = ElfLoader.EM_RISCV;
    private final List<long[]> segs = new ArrayList<>();   // vaddr, memsz, index into data
    private final List<byte[]> data = new ArrayList<>();
    private final List<String> symNames = new ArrayList<>();
    private final List<Long> symValues = new ArrayList<>();

    ElfBuilder(final int xlen) {
        this.is64 = xlen == 64;
    }

    ElfBuilder entry(final long e) {
        entry = e;
        return this;
    }

    ElfBuilder machine(final int m) {
        machine = m;
        return this;
    }

    ElfBuilder segment(final long vaddr, final byte[] bytes, final long memsz) {
        segs.add(new long[] {vaddr, memsz, data.size()});
        data.add(bytes);
        return this;
    }

    ElfBuilder symbol(final String name, final long value) {
        symNames.add(name);
        symValues.add(value);
        return this;
    }

    byte[] build() {
        final int eh = is64 ? 64 : 52;
        final int ph = is64 ? 56 : 32;
        final int sh = is64 ? 64 : 40;
        final int symEnt = is64 ? 24 : 16;
        int off = eh + ph * segs.size();
        final long[] dataOff = new long[segs.size()];
        for (int i = 0; i < segs.size(); i++) {
            dataOff[i] = off;
            off += data.get((int) segs.get(i)[2]).length;
        }
        final ByteBuffer strtab = ByteBuffer.allocate(1 + symNames.stream().mapToInt(s -> s.length() + 1).sum());
        strtab.put((byte) 0);
        final int[] nameOff = new int[symNames.size()];
        for (int i = 0; i < symNames.size(); i++) {
            nameOff[i] = strtab.position();
            strtab.put(symNames.get(i).getBytes(StandardCharsets.ISO_8859_1)).put((byte) 0);
        }
        final int symOff = off;
        final int symSize = symEnt * (symNames.size() + 1);
        final int strOff = symOff + symSize;
        final int shOff = strOff + strtab.capacity();
        final ByteBuffer b = ByteBuffer.allocate(shOff + 3 * sh).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) (is64 ? 2 : 1), 1, 1, 0});
        b.position(16);
        b.putShort((short) 2).putShort((short) machine).putInt(1);
        if (is64) {
            b.putLong(entry).putLong(eh).putLong(shOff).putInt(0).putShort((short) eh).putShort((short) ph)
                .putShort((short) segs.size()).putShort((short) sh).putShort((short) 3).putShort((short) 0);
        } else {
            b.putInt((int) entry).putInt(eh).putInt(shOff).putInt(0).putShort((short) eh).putShort((short) ph)
                .putShort((short) segs.size()).putShort((short) sh).putShort((short) 3).putShort((short) 0);
        }
        for (int i = 0; i < segs.size(); i++) {
            final long[] s = segs.get(i);
            final int len = data.get((int) s[2]).length;
            if (is64) {
                b.putInt(1).putInt(7).putLong(dataOff[i]).putLong(s[0]).putLong(s[0]).putLong(len).putLong(s[1]).putLong(4096);
            } else {
                b.putInt(1).putInt((int) dataOff[i]).putInt((int) s[0]).putInt((int) s[0]).putInt(len).putInt((int) s[1]).putInt(7).putInt(4096);
            }
        }
        for (int i = 0; i < segs.size(); i++) {
            b.put(data.get((int) segs.get(i)[2]));
        }
        b.position(symOff + symEnt);
        for (int i = 0; i < symNames.size(); i++) {
            if (is64) {
                b.putInt(nameOff[i]).put((byte) 0x10).put((byte) 0).putShort((short) 1).putLong(symValues.get(i)).putLong(0);
            } else {
                b.putInt(nameOff[i]).putInt((int) (long) symValues.get(i)).putInt(0).put((byte) 0x10).put((byte) 0).putShort((short) 1);
            }
        }
        b.position(strOff);
        b.put(strtab.array());
        b.position(shOff + sh);
        section(b, 2, symOff, symSize, 2, symEnt);
        section(b, 3, strOff, strtab.capacity(), 0, 0);
        return b.array();
    }

    private void section(final ByteBuffer b, final int type, final long off, final long size, final int link, final int entsize) {
        if (is64) {
            b.putInt(0).putInt(type).putLong(0).putLong(0).putLong(off).putLong(size).putInt(link).putInt(0).putLong(8).putLong(entsize);
        } else {
            b.putInt(0).putInt(type).putInt(0).putInt(0).putInt((int) off).putInt((int) size).putInt(link).putInt(0).putInt(4).putInt(entsize);
        }
    }
}
