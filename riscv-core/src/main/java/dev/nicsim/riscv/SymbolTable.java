package dev.nicsim.riscv;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The symbols of an ELF image, to find a symbol's address by name ({@code tohost}) and to name an
 * address as {@code symbol+0xoffset} in errors, traces and profiles.
 *
 * <p>Only named code and data symbols are kept (STT_NOTYPE, STT_OBJECT, STT_FUNC, local or
 * global); section and file symbols and assembler mapping symbols ({@code $x}, {@code .L...}) are
 * dropped. An address is named after the symbol with the highest address not above it (ties: the
 * global one, then the first in the file).
 *
 * <p>Thread-safety: immutable after construction; safe to share.
 */
public final class SymbolTable {
    /** The empty table (a stripped image). */
    public static final SymbolTable EMPTY = new SymbolTable(List.of());

    /**
     * One symbol: name, address (zero-extended), size in bytes, global or local binding, and whether
     * the binding is weak (ELF {@code STB_WEAK}, a definition another object's global one would have
     * replaced at link time, e.g. a runtime's default callback).
     *
     * @param name      symbol name
     * @param address   value, zero-extended
     * @param sizeBytes size, bytes
     * @param global    global or weak binding ({@code STB_GLOBAL}, {@code STB_WEAK}); false for local
     * @param weak      weak binding ({@code STB_WEAK})
     */
    public record Symbol(String name, long address, long sizeBytes, boolean global, boolean weak) {
        /**
         * A symbol that is not weak.
         *
         * @param name      symbol name
         * @param address   value, zero-extended
         * @param sizeBytes size, bytes
         * @param global    global or local binding
         */
        public Symbol(final String name, final long address, final long sizeBytes, final boolean global) {
            this(name, address, sizeBytes, global, false);
        }
    }

    private final long[] addresses;
    private final String[] names;
    private final Map<String, Symbol> byName = new HashMap<>();

    /**
     * Builds the table.
     *
     * @param symbols the symbols, any order
     */
    public SymbolTable(final List<Symbol> symbols) {
        final List<Symbol> sorted = new ArrayList<>(symbols);
        sorted.sort(Comparator.comparingLong(Symbol::address)
            .thenComparing(s -> !s.global()));
        final List<Symbol> unique = new ArrayList<>();
        for (final Symbol s : sorted) {
            if (unique.isEmpty() || unique.get(unique.size() - 1).address() != s.address()) {
                unique.add(s);
            }
            final Symbol prev = byName.get(s.name());
            if (prev == null || (!prev.global() && s.global())) {
                byName.put(s.name(), s);
            }
        }
        addresses = new long[unique.size()];
        names = new String[unique.size()];
        for (int i = 0; i < unique.size(); i++) {
            addresses[i] = unique.get(i).address();
            names[i] = unique.get(i).name();
        }
    }

    /**
     * Finds a symbol by name.
     *
     * @param name exact name
     * @return the symbol, or {@code null} when there is none
     */
    public Symbol find(final String name) {
        return byName.get(name);
    }

    /** @return number of distinct symbol addresses */
    public int size() {
        return addresses.length;
    }

    /**
     * Names an address.
     *
     * @param address zero-extended address
     * @return {@code name+0xoff} ({@code name} when the offset is 0), or {@code ?} when no symbol
     *     lies at or below the address
     */
    public String describe(final long address) {
        int i = Arrays.binarySearch(addresses, address);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0 || Long.compareUnsigned(addresses[i], address) > 0) {
            return "?";
        }
        final long off = address - addresses[i];
        return off == 0 ? names[i] : names[i] + "+0x" + Long.toHexString(off).toLowerCase(Locale.ROOT);
    }
}
