package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccParameter;
import dev.nicsim.riscv.Memory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a firmware declared in {@code doca_pcc_dev_user_init}: its algorithms, the parameters and
 * counters of the algorithm that runs (the one enabled in port 0, slot 0; else algorithm 0), and
 * the event types it disabled. Read from the runtime's tables ({@link FirmwareLayout}) after the
 * init entry returned.
 *
 * <p>Names, units and kinds are the runtime's (firmware/ABI.md §6): a description starting with
 * {@code name:} names its parameter or counter, else {@code param<id>} / {@code counter<id>}; a
 * parameter of kind 1 holds 16.16 fixed point (as a Java {@link PccParameter.Kind#FIXED_16_16}
 * parameter), kind 0 an integer.
 *
 * @param algorithms   declared algorithms, in index order
 * @param algoIndex    the algorithm that runs, or -1 when none was declared
 * @param parameters   its parameters (dense ids in declaration order; {@link #paramIds} maps them)
 * @param paramIds     per parameter, its firmware parameter id
 * @param counterNames its counters' names, in counter id order
 * @param counterIds   per counter, its firmware counter id
 * @param disableMask  bit {@code 1 << DOCA type}: events of that type are not delivered
 * @param failedSetupCalls one line per DOCA set-up call ({@code doca_pcc_dev_algo_init_metadata},
 *                     {@code _init_param}, {@code _init_counter}, {@code doca_pcc_dev_init_algo_slot},
 *                     {@code nicsim_pcc_algo_param_info}) that returned {@code DOCA_PCC_DEV_STATUS_FAIL}
 *                     during init, in call order, with its arguments; whatever such a call tried to
 *                     declare is not in the lists above (the runtime validates before it marks). Empty
 *                     when every call succeeded. The firmware may have ignored the return value: this
 *                     is how the user learns of it
 */
public record FirmwareDeclarations(List<Algorithm> algorithms, int algoIndex, List<PccParameter> parameters, int[] paramIds,
                                   List<String> counterNames, int[] counterIds, int disableMask, List<String> failedSetupCalls) {

    /**
     * One declared algorithm.
     *
     * @param index       algorithm index (0..7)
     * @param id          algo_id
     * @param major       major version
     * @param minor       minor version
     * @param description its description string
     * @param params      parameters declared
     * @param counters    counters declared
     */
    public record Algorithm(int index, long id, int major, int minor, String description, int params, int counters) {
    }

    /**
     * Builds a parameter descriptor from a declaration.
     *
     * @param denseId  the Java id (position)
     * @param fwId     firmware parameter id
     * @param name     its name (firmware/ABI.md §6 "Names")
     * @param fraction whether the raw value is 16.16 fixed point
     * @param unit     its unit, or empty
     * @param desc     its description
     * @param def      default raw value (u32)
     * @param min      minimum raw value
     * @param max      maximum raw value
     * @return the descriptor
     */
    static PccParameter parameter(final int denseId, final int fwId, final String name, final boolean fraction, final String unit,
                                  final String desc, final long def, final long min, final long max) {
        final double scale = fraction ? 65536.0 : 1.0;
        final long lo = Math.min(min, max);
        final long hi = Math.max(min, max);
        final long d = Math.max(lo, Math.min(hi, def));
        return new PccParameter(denseId, name, fraction ? PccParameter.Kind.FIXED_16_16 : PccParameter.Kind.INTEGER,
            d / scale, lo / scale, hi / scale, unit.isEmpty() ? (fraction ? "fraction" : "raw") : unit,
            (desc.isBlank() ? "firmware parameter" : desc) + " (firmware parameter " + fwId + ")");
    }

    /**
     * Reads what a firmware declared from the runtime's tables after its init entry returned.
     *
     * @param memory           the NIC's firmware memory
     * @param image            the firmware (table symbols)
     * @param slotTable        address of the slot table, or -1 when the image has none
     * @param slot             the slot of port 0 that runs, or -1 for none
     * @param failedSetupCalls the set-up calls that failed during init (kept, copied)
     * @return the declarations
     */
    static FirmwareDeclarations read(final Memory memory, final FirmwareImage image, final long slotTable, final int slot,
                                     final List<String> failedSetupCalls) {
        final long algos = image.symbol(FirmwareLayout.ALGO_TABLE);
        final long params = image.symbol(FirmwareLayout.PARAM_TABLE);
        final long counters = image.symbol(FirmwareLayout.COUNTER_TABLE);
        final long mask = image.symbol(FirmwareLayout.DISABLE_MASK);
        final List<FirmwareDeclarations.Algorithm> list = new ArrayList<>();
        if (algos >= 0) {
            for (int a = 0; a < FirmwareLayout.MAX_ALGOS; a++) {
                final long row = algos + (long) a * FirmwareLayout.ALGO_ROW;
                if (u32(memory, row) != 0) {
                    list.add(new FirmwareDeclarations.Algorithm(a, u32(memory, row + 4), (int) u32(memory, row + 8), (int) u32(memory, row + 12),
                        string(memory, memory.load(row + 32, 8), u32(memory, row + 24)), (int) u32(memory, row + 16), (int) u32(memory, row + 20)));
                }
            }
        }
        int algo = -1;
        if (slot >= 0) {
            algo = (int) u32(memory, slotTable + (long) slot * FirmwareLayout.SLOT_ROW + 4);
        }
        final List<PccParameter> ps = new ArrayList<>();
        final List<Integer> pids = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        final List<String> cs = new ArrayList<>();
        final List<Integer> cids = new ArrayList<>();
        if (algo >= 0 && algo < FirmwareLayout.MAX_ALGOS && params >= 0) {
            for (int p = 0; p < FirmwareLayout.MAX_PARAMS; p++) {
                final long row = params + (long) (algo * FirmwareLayout.MAX_PARAMS + p) * FirmwareLayout.PARAM_ROW;
                if (u32(memory, row) == 0) {
                    continue;
                }
                final String nm = u32(memory, row + 48) == 0 ? "param" + p : string(memory, memory.load(row + 40, 8), u32(memory, row + 48));
                final String unit = u32(memory, row + 52) == 0 ? "" : string(memory, memory.load(row + 56, 8), u32(memory, row + 52));
                PccParameter d = FirmwareDeclarations.parameter(ps.size(), p, nm, u32(memory, row + 24) == 1, unit,
                    string(memory, memory.load(row + 32, 8), u32(memory, row + 28)), u32(memory, row + 8), u32(memory, row + 16), u32(memory, row + 12));
                if (!names.add(d.name())) {
                    d = new PccParameter(d.id(), d.name() + "_" + p, d.kind(), d.defaultValue(), d.min(), d.max(), d.unit(), d.description());
                    names.add(d.name());
                }
                ps.add(d);
                pids.add(p);
            }
        }
        if (algo >= 0 && algo < FirmwareLayout.MAX_ALGOS && counters >= 0) {
            final Set<String> cn = new HashSet<>();
            for (int c = 0; c < FirmwareLayout.MAX_COUNTERS; c++) {
                final long row = counters + (long) (algo * FirmwareLayout.MAX_COUNTERS + c) * FirmwareLayout.COUNTER_ROW;
                if (u32(memory, row) == 0) {
                    continue;
                }
                String n = u32(memory, row + 20) == 0 ? "counter" + c : string(memory, memory.load(row + 32, 8), u32(memory, row + 20));
                if (!cn.add(n)) {
                    n = n + "_" + c;
                }
                cs.add(n);
                cids.add(c);
            }
        }
        return new FirmwareDeclarations(List.copyOf(list), algo, List.copyOf(ps), pids.stream().mapToInt(Integer::intValue).toArray(),
            List.copyOf(cs), cids.stream().mapToInt(Integer::intValue).toArray(), mask >= 0 ? (int) u32(memory, mask) : 0,
            List.copyOf(failedSetupCalls));
    }

    private static long u32(final Memory memory, final long address) {
        return memory.load(address, 4) & 0xFFFF_FFFFL;
    }

    private static String string(final Memory memory, final long address, final long size) {
        if (address <= 0 || size <= 0) {
            return "";
        }
        final int n = (int) Math.min(size, 256);
        final byte[] b = memory.read(address, n);
        if (b == null) {
            return "";
        }
        int len = 0;
        while (len < b.length && b[len] != 0) {
            len++;
        }
        return new String(b, 0, len, StandardCharsets.UTF_8);
    }

    /** @return the descriptions of every declared algorithm, for messages */
    List<String> algorithmNames() {
        final List<String> l = new ArrayList<>();
        for (final Algorithm a : algorithms) {
            l.add(a.description());
        }
        return l;
    }
}
