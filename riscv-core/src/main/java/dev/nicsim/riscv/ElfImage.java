package dev.nicsim.riscv;

import java.util.List;

/**
 * A loaded RISC-V executable: its XLEN (from the ELF class), entry point, PT_LOAD segments and
 * symbols. Produced by {@link ElfLoader}; turned into memory by {@link Machine}.
 *
 * <p>Thread-safety: immutable (the segment byte arrays must not be modified after loading).
 *
 * @param path     file the image came from (for messages)
 * @param xlen     32 (ELFCLASS32) or 64 (ELFCLASS64)
 * @param entry    entry point address, zero-extended
 * @param segments PT_LOAD segments, sorted by address, non-overlapping
 * @param symbols  symbol table ({@link SymbolTable#EMPTY} when stripped)
 */
public record ElfImage(String path, int xlen, long entry, List<Segment> segments, SymbolTable symbols) {

    /**
     * One PT_LOAD segment.
     *
     * @param address  virtual address (p_vaddr), zero-extended
     * @param memBytes size in memory (p_memsz), at least {@code data.length}; the rest is zero
     * @param data     file contents (p_filesz bytes)
     * @param flags    p_flags (PF_X 1, PF_W 2, PF_R 4)
     */
    public record Segment(long address, long memBytes, byte[] data, int flags) {
    }
}
