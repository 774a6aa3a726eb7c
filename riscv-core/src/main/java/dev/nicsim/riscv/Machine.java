package dev.nicsim.riscv;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * A RISC-V program ready to run: the ELF's memory image (its PT_LOAD segments, rounded out to
 * 4 KiB pages and merged where they touch, as an OS maps them) plus declared RAM after it, one
 * hart at the entry point, and the environment the program talks to.
 *
 * <p><b>Exits and output.</b> When the image has a {@code tohost} symbol it follows the
 * riscv-tests convention ({@code ../shared/peers/riscv-tests/README.md}, "p" environment):
 * {@code ecall} traps to {@code mtvec} as in machine mode, and the first store that leaves an odd
 * value v at {@code tohost} ends the run with status {@code v >> 1} (1 = pass; values above 255
 * exit with 255). An even value with device 1, command 1 (HTIF console) prints its low byte.
 * Without {@code tohost}, {@code ecall} is a Linux-style system call (RISC-V Linux
 * {@code asm-generic/unistd.h} numbers): {@code write} (64) to fd 1/2 writes to the given
 * streams and returns the count (-EBADF for other fds, -EFAULT for unmapped buffers),
 * {@code exit} (93) and {@code exit_group} (94) end the run with {@code a0 & 0xff}; any other
 * number returns -ENOSYS; every other exception is fatal, as a signal would be under Linux.
 *
 * <p><b>Memory timing.</b> With a model that has a {@link MemoryHierarchy} ({@code bf3-dpa}),
 * every region's loads go through it (thread 0 of core 0); otherwise every load costs the
 * model's load latency.
 *
 * <p><b>Initial state.</b> pc = entry, every register 0 except {@code sp}, which points 64 bytes
 * below the end of RAM at a zeroed Linux-style start block ({@code argc} = 0, empty
 * {@code argv}, {@code envp}, {@code auxv}).
 *
 * <p>Thread-safety: not thread-safe; one thread runs it.
 */
public final class Machine implements Environment {
    /** Declared RAM after the image, in bytes, unless told otherwise (4 MiB). */
    public static final long DEFAULT_RAM_BYTES = 4L << 20;
    /** Least declared RAM, bytes (one 4 KiB page). */
    public static final long MIN_RAM_BYTES = 4096;
    /** Most declared RAM, bytes (1 GiB). */
    public static final long MAX_RAM_BYTES = 1L << 30;
    private static final long HTIF_CONSOLE_PUTCHAR = 0x0101L << 48;

    private final ElfImage image;
    private final Memory memory = new Memory();
    private final Hart hart;
    private final PrintStream out;
    private final PrintStream err;
    private final long tohost;
    private final MemoryHierarchy hierarchy;
    private String error;

    /**
     * Builds the machine.
     *
     * @param image    the program
     * @param model    cycle model
     * @param ramBytes declared RAM after the image, bytes, 4 KiB to 1 GiB
     * @param out      the program's standard output
     * @param err      the program's standard error
     * @throws ElfFormatException when the RAM size is outside {@link #MIN_RAM_BYTES} ..
     *                            {@link #MAX_RAM_BYTES}, the image and RAM do not fit the address
     *                            space, or the entry point lies outside every loadable segment
     */
    public Machine(final ElfImage image, final CycleModel model, final long ramBytes, final PrintStream out, final PrintStream err)
        throws ElfFormatException {
        this.image = image;
        this.out = out;
        this.err = err;
        final List<long[]> spans = image.pageSpans();
        long total = 0;
        for (final long[] sp : spans) {
            total += sp[1] - sp[0];
            if (sp[1] - sp[0] > Memory.MAX_REGION_BYTES || total > (1L << 30)) {
                throw new ElfFormatException(image.path() + ": loadable segments span more than 1 GiB");
            }
        }
        final long limit = image.xlen() == 32 ? 1L << 32 : Long.MAX_VALUE;
        final long ramBase = spans.get(spans.size() - 1)[1];
        if (ramBytes < MIN_RAM_BYTES || ramBytes > MAX_RAM_BYTES) {
            throw new ElfFormatException(String.format(Locale.ROOT, "RAM of %d bytes is outside the allowed %d to %d bytes"
                + " (4 KiB to 1 GiB)", ramBytes, MIN_RAM_BYTES, MAX_RAM_BYTES));
        }
        if (ramBase > limit - ramBytes) {
            throw new ElfFormatException(String.format(Locale.ROOT, "%s: no room for %d bytes of RAM after the image at 0x%x;"
                + " at most %d bytes fit below the end of the RV%d address space", image.path(), ramBytes, ramBase,
                (limit - ramBase) & ~(ElfImage.PAGE_BYTES - 1), image.xlen()));
        }
        boolean entryLoaded = false;
        final StringBuilder segments = new StringBuilder();
        for (final ElfImage.Segment s : image.segments()) {
            entryLoaded |= Long.compareUnsigned(image.entry() - s.address(), s.memBytes()) < 0;
            segments.append(segments.length() == 0 ? "" : ", ")
                .append(String.format(Locale.ROOT, "[0x%x, 0x%x)", s.address(), s.address() + s.memBytes()));
        }
        if (!entryLoaded) {
            throw new ElfFormatException(String.format(Locale.ROOT, "%s: entry point e_entry 0x%x lies outside every loadable"
                + " segment (%s)", image.path(), image.entry(), segments));
        }
        hierarchy = model.memory() == null ? null : new MemoryHierarchy(model.memory(), 1, 1);
        int i = 0;
        for (final long[] sp : spans) {
            addRegion("image" + i++, sp[0], sp[1] - sp[0]);
        }
        addRegion("ram", ramBase, ramBytes);
        for (final ElfImage.Segment s : image.segments()) {
            memory.write(s.address(), s.data());
        }
        final SymbolTable.Symbol th = image.symbols().find("tohost");
        tohost = th == null ? Long.MIN_VALUE : th.address();
        hart = new Hart(memory, image.xlen(), model, 0);
        hart.setEnvironment(this);
        hart.setPc(image.entry());
        hart.setReg(2, ramBase + ramBytes - 64);
        if (th != null) {
            memory.watch(tohost);
        } else {
            hart.setSystemCalls(true);
        }
    }

    private void addRegion(final String name, final long base, final long size) {
        if (hierarchy == null) {
            memory.addRegion(name, base, size, 0);
        } else {
            memory.addRegion(name, base, size, hierarchy);
        }
    }

    /**
     * The cache hierarchy every load goes through when the model has one ({@code bf3-dpa}): one
     * core, one thread.
     *
     * @return the hierarchy, or null for flat memory
     */
    public MemoryHierarchy hierarchy() {
        return hierarchy;
    }

    /** @return the hart */
    public Hart hart() {
        return hart;
    }

    /** @return the memory */
    public Memory memory() {
        return memory;
    }

    /** @return the image */
    public ElfImage image() {
        return image;
    }

    /** @return an environment error that stopped the run (unsupported HTIF request), or {@code null} */
    public String environmentError() {
        return error;
    }

    /**
     * Names an address for messages.
     *
     * @param address zero-extended address
     * @return {@code symbol+0xoff} or {@code ?}
     */
    public String describe(final long address) {
        return image.symbols().describe(address);
    }

    /**
     * The instruction word at an address (for messages and traces).
     *
     * @param pc address
     * @return the 32-bit word, the 16-bit parcel of a compressed instruction, or -1 when unmapped
     */
    public long instructionWord(final long pc) {
        final byte[] lo = memory.read(pc, 2);
        if (lo == null) {
            return -1;
        }
        final int h = lo[0] & 0xff | (lo[1] & 0xff) << 8;
        if (Isa.isCompressed(h)) {
            return h;
        }
        final byte[] w = memory.read(pc, 4);
        return w == null ? -1 : (w[0] & 0xffL) | (w[1] & 0xffL) << 8 | (w[2] & 0xffL) << 16 | (w[3] & 0xffL) << 24;
    }

    /**
     * One line describing the hart's fault: cause, pc, symbol, instruction word, address.
     *
     * @return the line (without the {@code nicsim riscv:} prefix)
     */
    public String faultLine() {
        final Hart.Fault f = hart.fault();
        if (f == null) {
            return "no fault";
        }
        final StringBuilder b = new StringBuilder();
        b.append(f.causeName()).append(" at pc ").append(hex(f.pc())).append(" (").append(describe(f.pc())).append("): insn ");
        final long w = instructionWord(f.pc());
        b.append(w < 0 ? "unmapped" : (w <= 0xffff && Isa.isCompressed((int) w) ? String.format(Locale.ROOT, "0x%04x", w) : String.format(Locale.ROOT, "0x%08x", w)));
        if (f.cause() == Hart.CAUSE_LOAD_ACCESS || f.cause() == Hart.CAUSE_STORE_ACCESS || f.cause() == Hart.CAUSE_LOAD_MISALIGNED
            || f.cause() == Hart.CAUSE_STORE_MISALIGNED) {
            b.append(", address ").append(hex(f.tval()));
        }
        if (w >= 0) {
            b.append(" (").append(Isa.disassemble((int) w, hart.xlen(), f.pc())).append(')');
        }
        return b.toString();
    }

    String hex(final long v) {
        return hart.xlen() == 32 ? String.format(Locale.ROOT, "0x%08x", v & 0xffffffffL) : String.format(Locale.ROOT, "0x%016x", v);
    }

    @Override
    public boolean ecall(final Hart h) {
        final long num = h.reg(17);
        switch ((int) num) {
            case 64: {
                final long fd = h.reg(10);
                final long buf = h.reg(11) & (h.xlen() == 32 ? 0xffffffffL : -1L);
                final long len = h.reg(12);
                if (fd != 1 && fd != 2) {
                    h.setReg(10, -9);
                    return true;
                }
                if (len < 0 || len > Integer.MAX_VALUE - 16) {
                    h.setReg(10, -14);
                    return true;
                }
                final byte[] data = len == 0 ? new byte[0] : memory.read(buf, (int) len);
                if (data == null) {
                    h.setReg(10, -14);
                    return true;
                }
                final PrintStream s = fd == 1 ? out : err;
                s.write(data, 0, data.length);
                s.flush();
                h.setReg(10, len);
                return true;
            }
            case 93:
            case 94:
                h.exit((int) (h.reg(10) & 0xff));
                return false;
            default:
                h.setReg(10, -38);
                return true;
        }
    }

    @Override
    public boolean toHost(final Hart h, final long value) {
        if (value == 0) {
            return false;
        }
        if ((value & 1) != 0) {
            final long code = value >>> 1;
            h.exit(code > 255 ? 255 : (int) code);
            return true;
        }
        if ((value & 0xffff_0000_0000_0000L) == HTIF_CONSOLE_PUTCHAR) {
            out.write((int) (value & 0xff));
            memory.store(tohost, 8, 0);
            return false;
        }
        error = String.format(Locale.ROOT, "unsupported tohost request 0x%x at pc %s (%s)", value, hex(h.pc()), describe(h.pc()));
        h.exit(RiscvRun.EXIT_FAULT);
        return true;
    }
}
