package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccParameter;

import java.util.ArrayList;
import java.util.List;

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
 *                     is how the user learns of it (issue 23 defect 7)
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

    /** @return the descriptions of every declared algorithm, for messages */
    List<String> algorithmNames() {
        final List<String> l = new ArrayList<>();
        for (final Algorithm a : algorithms) {
            l.add(a.description());
        }
        return l;
    }
}
