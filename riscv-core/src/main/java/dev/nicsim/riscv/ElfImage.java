package dev.nicsim.riscv;

import java.util.ArrayList;
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

    /** Page size the loadable segments are mapped in, bytes. */
    public static final long PAGE_BYTES = 4096;

    /**
     * The memory the loadable segments need: each segment rounded out to whole {@link #PAGE_BYTES}
     * pages, spans that overlap or touch after rounding merged.
     *
     * @return {@code {lo, hi}} address pairs (hi exclusive, both page-aligned), in address order; a
     *         new list on every call
     */
    public List<long[]> pageSpans() {
        final List<long[]> spans = new ArrayList<>();
        for (final Segment s : segments) {
            final long lo = s.address() & ~(PAGE_BYTES - 1);
            final long hi = (s.address() + s.memBytes() + PAGE_BYTES - 1) & ~(PAGE_BYTES - 1);
            if (!spans.isEmpty() && spans.get(spans.size() - 1)[1] >= lo) {
                spans.get(spans.size() - 1)[1] = Math.max(hi, spans.get(spans.size() - 1)[1]);
            } else {
                spans.add(new long[] {lo, hi});
            }
        }
        return spans;
    }

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
