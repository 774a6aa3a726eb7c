/*
 * EntrySmoke - drives a firmware ELF through the entries of firmware/ABI.md on riscv-core the way
 * the uNIC emulator does (a hart per call: pc = entry, a0 = mailbox, a1 = context; ecall 0x4E00
 * ends the call), to check the ABI from the Java side: load init, the tables, a flow-init call and
 * one event of each type, with instructions and cycles per call on a flat-memory hart of MODEL
 * (default: e31's timing with Zbb and Zbs enabled, so the shipped RV64IMAC+Zbb+Zbs ELFs and
 * plain RV64IMAC ones run under the same timing); faults and the instruction budget are reported,
 * not thrown. Instruction counts do not depend on the model.
 *
 * Usage: java -cp cli/target/nicsim.jar firmware/tests/java/EntrySmoke.java ELF [MODEL] [--functions]
 *   MODEL: e31, ibex, bf3-dpa (its core timing only: this hart has no memory hierarchy) or a model
 *   YAML file; --functions single-steps each event call and prints the instructions retired in
 *   each function (by the symbol enclosing the pc), in the order first entered
 */
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.ElfImage;
import dev.nicsim.riscv.ElfLoader;
import dev.nicsim.riscv.Environment;
import dev.nicsim.riscv.Hart;
import dev.nicsim.riscv.Isa;
import dev.nicsim.riscv.Memory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;

public final class EntrySmoke {
    static final long THREADS = 0x0100_0000L;
    static final long CTX = 0x4000_0000L;
    static final long MB = THREADS + 3 * 0x1000L; // thread rank 3

    static CycleModel model = CycleModel.E31.withExtensions(EnumSet.allOf(Isa.Extension.class));

    static boolean functions;

    private EntrySmoke() {
    }

    public static void main(final String[] args) throws Exception {
        final ElfImage image = ElfLoader.load(Path.of(args[0]));
        for (int a = 1; a < args.length; a++) {
            if ("--functions".equals(args[a])) {
                functions = true;
            } else {
                model = CycleModel.byName(args[a]);
            }
        }
        final Memory mem = new Memory();
        int i = 0;
        for (final ElfImage.Segment s : image.segments()) {
            final long lo = s.address() & ~4095L;
            final long hi = (s.address() + s.memBytes() + 4095) & ~4095L;
            mem.addRegion("seg" + i++, lo, hi - lo, 0);
            mem.write(s.address(), s.data());
        }
        mem.addRegion("ctx", CTX, 4096, 0);
        final long initEntry = image.symbols().find("nicsim_pcc_init_entry").address();
        final long eventEntry = image.symbols().find("nicsim_pcc_event_entry").address();
        System.out.println("user_algo " + (image.symbols().find("doca_pcc_dev_user_algo") != null));
        call(image, mem, initEntry, 0, "load-init");
        final long algos = image.symbols().find("nicsim_pcc_algos").address();
        final long params = image.symbols().find("nicsim_pcc_param_table").address();
        final long values = image.symbols().find("nicsim_pcc_params").address();
        System.out.printf("disabled 0x%x algo0 declared %d params %d counters %d%n",
            mem.load(image.symbols().find("nicsim_pcc_disabled_events").address(), 4), mem.load(algos, 4),
            mem.load(algos + 16, 4), mem.load(algos + 20, 4));
        for (int p = 0; p < mem.load(algos + 16, 4); p++) {
            final long e = params + p * 64L;
            System.out.printf("  param %d %s default %d value %d%n", p,
                str(mem, mem.load(e + 40, 8), (int) mem.load(e + 48, 4)), mem.load(e + 8, 4), mem.load(values + 4L * p, 4));
        }
        // attributes: 100 Gb/s, MTU 1000, base RTT 8 us, thread rank 3
        mem.store(MB + 84, 4, 1000);
        mem.store(MB + 88, 8, 100_000_000_000L);
        mem.store(MB + 96, 4, 8000);
        mem.store(MB + 148, 4, 3);
        mem.store(MB + 144, 4, 1); // flow init
        prefill(mem);
        mem.store(MB + 100, 4, 100);
        call(image, mem, eventEntry, CTX, "flow-init");
        final int[][] events = {{3, 1000}, {2, 2000}, {4, 3000}, {5, 4000}, {6, 5000}, {8, 9000}, {3, 10000}};
        for (final int[] ev : events) {
            mem.store(MB + 144, 4, 0);
            prefill(mem);
            mem.store(MB, 1, ev[0]);
            mem.store(MB + 12, 4, Integer.reverseBytes(ev[1]));
            mem.store(MB + 16, 4, Integer.reverseBytes(ev[1]));
            mem.store(MB + 24, 4, Integer.reverseBytes(1));
            mem.store(MB + 64, 4, Integer.reverseBytes(40_000));
            call(image, mem, eventEntry, CTX, "event type " + ev[0]);
        }
    }

    static void prefill(final Memory mem) {
        mem.store(MB + 112, 4, 0xFFFF_FFFFL);
        mem.store(MB + 116, 4, 0);
        mem.store(MB + 120, 8, -1L);
        mem.store(MB + 128, 4, 0);
        mem.store(MB + 132, 4, 0xFFFF_FFFFL);
    }

    static String str(final Memory mem, final long addr, final int len) {
        return len == 0 ? "?" : new String(mem.read(addr, len), StandardCharsets.UTF_8);
    }

    static void call(final ElfImage image, final Memory mem, final long entry, final long ctx, final String what) {
        final Hart h = new Hart(mem, 64, model, 0);
        final boolean[] done = {false};
        h.setSystemCalls(true);
        h.setEnvironment(new Environment() {
            @Override
            public boolean ecall(final Hart hart) {
                final long n = hart.reg(17);
                if (n == 0x4E00) {
                    done[0] = true;
                    hart.exit(0);
                    return false;
                }
                if (n == 0x4E01) {
                    System.out.print("  log: " + str(mem, hart.reg(10), (int) hart.reg(11)));
                    hart.setReg(10, hart.reg(11));
                    return true;
                }
                hart.setReg(10, -38);
                return true;
            }

            @Override
            public boolean toHost(final Hart hart, final long value) {
                return false;
            }
        });
        h.setPc(entry);
        h.setReg(10, MB);
        h.setReg(11, ctx);
        final java.util.Map<String, Long> perFunction = new java.util.LinkedHashMap<>();
        if (functions && ctx != 0) {
            while (!done[0] && h.fault() == null && h.instret() < 100_000) {
                final long pc = h.pc();
                final long before = h.instret();
                h.run(before + 1);
                if (h.instret() == before) {
                    break;
                }
                final String where = image.symbols().describe(pc);
                final int plus = where.indexOf('+');
                perFunction.merge(plus < 0 ? where : where.substring(0, plus), h.instret() - before, Long::sum);
            }
        } else {
            h.run(100_000);
        }
        final String status = done[0] ? "done" : h.fault() != null
            ? String.format("FAULT %s at pc 0x%x (%s) tval 0x%x", h.fault().causeName(), h.fault().pc(),
                image.symbols().describe(h.fault().pc()), h.fault().tval())
            : "BUDGET exceeded at pc 0x" + Long.toHexString(h.pc());
        System.out.printf("%-13s %s: %d instructions, %d cycles; rate %d rtt_req %d window %d timer %d ctx %d,%d%n", what,
            status, h.instret(), h.cycles(), mem.load(MB + 112, 4), mem.load(MB + 116, 4), mem.load(MB + 120, 8),
            mem.load(MB + 128, 4), mem.load(CTX, 4), mem.load(CTX + 4, 4));
        perFunction.forEach((f, n) -> System.out.printf("    %-36s %4d%n", f, n));
    }
}
