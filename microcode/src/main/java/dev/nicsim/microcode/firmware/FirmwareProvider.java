package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.Isa;
import dev.nicsim.riscv.SymbolTable;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A firmware ELF as an algorithm provider: {@code algorithm.firmware: PATH.elf},
 * {@code nicsim replay --firmware}, {@code nicsim firmware}. Loading checks the image
 * ({@link FirmwareImage}) and runs its {@code doca_pcc_dev_user_init} once to learn the declared
 * algorithms, parameters and counters ({@link FirmwareDeclarations}); {@link #parameters()} are the
 * declared parameters of the algorithm in port 0, slot 0, so {@code algorithm.params.NAME} sets
 * them by name (unknown names are rejected as for Java algorithms).
 *
 * <p>Each CC processor (NIC) gets one firmware memory, initialised by running
 * {@code doca_pcc_dev_user_init} and then writing the parameter values into the runtime's table
 * ({@link #processorInstances}); its cores get instances sharing it ({@link FirmwareAlgorithm}).
 * The cores run the {@code bf3-dpa} machine model unless another is given
 * ({@link CycleModel#bf3Dpa()}: 16 cores x 16 threads at 1.8 GHz sharing one pipeline per core, a
 * tag-only cache hierarchy; its model file gives every number's source or assumption); with it
 * the emulator interleaves the handlers of one core's threads ({@link FirmwareAlgorithm}).
 *
 * <p>Thread-safety: the provider is shared by the NICs of one run. The fault record
 * ({@link FirmwareFaultLog}) is updated under its lock, since a partitioned run
 * ({@code nicsim run --partitions N}) drives its NICs from several threads: the counts are exact,
 * and {@link #firstFault()} is the earliest fault by (simulated time, host index), whichever
 * thread recorded it first, so it depends on N only. The profile is a plain field (profiling runs
 * one partition).
 */
public final class FirmwareProvider extends FirmwareProgram implements PccAlgorithmProvider {
    /** Default core clock with firmware, GHz (the BlueField-3 DPA's, docs/firmware.md). */
    public static final double DEFAULT_CLOCK_GHZ = 1.8;
    /** Default instruction budget of one event's handler. */
    public static final long DEFAULT_MAX_INSTRUCTIONS_PER_EVENT = 100_000;
    /** Instruction budget of {@code doca_pcc_dev_user_init}. */
    public static final long INIT_MAX_INSTRUCTIONS = 10_000_000;

    private final FirmwareDeclarations declarations;
    private final long maxInstructionsPerEvent;
    private FirmwareProfile profile;

    private FirmwareProvider(final FirmwareImage image, final long maxInstructionsPerEvent, final CycleModel model) {
        super(image, model, maxInstructionsPerEvent, "firmware: ");
        this.maxInstructionsPerEvent = maxInstructionsPerEvent;
        this.declarations = new FirmwareNic(image, model, null, INIT_MAX_INSTRUCTIONS, line -> { }).declarations;
    }

    /**
     * Loads a firmware ELF and runs its init once.
     *
     * @param elf                     the file
     * @param maxInstructionsPerEvent instruction budget per event, at least 1
     * @return the provider
     * @throws FirmwareException one line: not a RISC-V ELF, no {@code doca_pcc_dev_user_algo}, not
     *                           linked with the runtime, or its init faults
     */
    public static FirmwareProvider load(final Path elf, final long maxInstructionsPerEvent) {
        return load(elf, maxInstructionsPerEvent, CycleModel.bf3Dpa());
    }

    /**
     * Loads a firmware ELF for a machine model and runs its init once.
     *
     * @param elf                     the file
     * @param maxInstructionsPerEvent instruction budget per event, at least 1
     * @param model                   the cores' model ({@code bf3-dpa}, {@code e31}, {@code ibex}, a YAML file's)
     * @return the provider
     * @throws FirmwareException as {@link #load(Path, long)}, and when the image is built for an
     *                           extension the model lacks (e.g. the shipped Zbb/Zbs ELFs on e31)
     */
    public static FirmwareProvider load(final Path elf, final long maxInstructionsPerEvent, final CycleModel model) {
        if (maxInstructionsPerEvent < 1) {
            throw new IllegalArgumentException("maxInstructionsPerEvent must be >= 1, got " + maxInstructionsPerEvent);
        }
        final FirmwareImage image = FirmwareImage.load(elf);
        checkExtensions(image, model);
        if (!image.hasUserAlgo()) {
            throw new FirmwareException(elf + ": no " + FirmwareLayout.USER_ALGO + ": a notification-point program ("
                + FirmwareLayout.NP_HANDLER + "), not a reaction-point algorithm");
        }
        return new FirmwareProvider(image, maxInstructionsPerEvent, model);
    }

    /**
     * Refuses an image built for an extension the model's harts do not execute (the shipped ELFs are
     * built for Zbb and Zbs, which e31 and ibex trap): every event would otherwise fault on its
     * first such instruction.
     *
     * @param image the image
     * @param model the cores' model
     * @throws FirmwareException one line naming the file, its arch attribute, the model, the
     *                           missing extensions and the way out
     */
    static void checkExtensions(final FirmwareImage image, final CycleModel model) {
        final Set<Isa.Extension> missing = image.extensionsUsed();
        missing.removeAll(model.extensions());
        if (!missing.isEmpty()) {
            final StringBuilder names = new StringBuilder();
            for (final Isa.Extension x : missing) {
                names.append(names.length() == 0 ? "" : ", ").append(x.name().toLowerCase(Locale.ROOT));
            }
            throw new FirmwareException(image.path() + ": built for " + image.arch() + " (its .riscv.attributes); model "
                + model.name() + " does not execute " + names + " (it traps them as illegal instructions): use a model "
                + "with extensions [zbb, zbs] (bf3-dpa) or rebuild for plain RV64IMAC (make -C firmware FW_MARCH=rv64imac"
                + ", firmware/README.md)");
        }
    }

    /** @return {@code firmware:<file name>} */
    @Override
    public String name() {
        return "firmware:" + image.path().getFileName();
    }

    @Override
    public String description() {
        return "firmware " + image.path() + (declarations.algorithms().isEmpty() ? "" : " ("
            + String.join(", ", declarations.algorithmNames()) + ")");
    }

    @Override
    public List<PccParameter> parameters() {
        return declarations.parameters();
    }

    /** Makes a stand-alone instance with a firmware memory of its own. */
    @Override
    public PccAlgorithm create(final PccParameterValues values) {
        return processorInstances(values).get();
    }

    /** Instances of one NIC: the first call builds the NIC's firmware memory; each call makes one core's instance. */
    @Override
    public Supplier<PccAlgorithm> processorInstances(final PccParameterValues values) {
        return processorInstances(values, null);
    }

    /**
     * Instances of one NIC whose port speed and byte counters the firmware reads through DOCA's port
     * queries and NIC counters.
     *
     * @param values parameter values
     * @param ports  the simulated NIC, or null when there is none (counters read 0; speed from the first flow)
     * @return the supplier; its first call builds the NIC's firmware memory
     */
    public Supplier<PccAlgorithm> processorInstances(final PccParameterValues values, final NicPorts ports) {
        final long[] raw = new long[declarations.parameters().size()];
        final StringBuilder changed = new StringBuilder();
        for (int i = 0; i < raw.length; i++) {
            raw[i] = values.raw(i);
            if (raw[i] != declarations.parameters().get(i).defaultRaw()) {
                changed.append(changed.length() == 0 ? "" : ", ").append(declarations.parameters().get(i).name());
            }
        }
        final SymbolTable.Symbol setParams = image.elf().symbols().find(SET_ALGO_PARAMS);
        if (changed.length() > 0 && setParams != null && !setParams.weak()) {
            services.atLoad(FirmwareServiceLog.SET_ALGO_PARAMS, String.format(Locale.ROOT,
                "defined by the program at 0x%x while the scenario sets %s", setParams.address(), changed));
        }
        return new Supplier<>() {
            private FirmwareNic nic;
            private int next;

            @Override
            public PccAlgorithm get() {
                if (nic == null) {
                    nic = new FirmwareNic(image, model, raw, INIT_MAX_INSTRUCTIONS, line -> log.accept(line));
                    nic.ports(ports);
                    nic.services(services);
                }
                return new FirmwareAlgorithm(FirmwareProvider.this, nic, next++);
            }
        };
    }

    /** The runtime's weak default the program may replace: validates and copies new parameter values. */
    static final String SET_ALGO_PARAMS = "doca_pcc_dev_user_set_algo_params";

    /** @return what its init declared */
    public FirmwareDeclarations declarations() {
        return declarations;
    }

    /** @return instruction budget per event */
    public long maxInstructionsPerEvent() {
        return maxInstructionsPerEvent;
    }

    /**
     * Turns on profiling: every later handler call runs one instruction at a time and is recorded.
     *
     * @return the profile
     */
    public FirmwareProfile enableProfile() {
        if (profile == null) {
            profile = new FirmwareProfile(image);
        }
        return profile;
    }

    /** @return the profile, or null when off */
    FirmwareProfile profile() {
        return profile;
    }

    /**
     * Records a call abandoned on a trap.
     *
     * @param timePs simulated time of the NIC, ps ({@link FirmwareFaultLog#NO_TIME} if unknown)
     * @param host   the NIC's host index ({@link FirmwareFaultLog#NO_HOST} if unknown)
     * @param line   the trap as {@code FirmwareNic.faultLine} gives it
     * @param type   the event type, or -1 (flow start), {@link #TYPE_PORT_INFO}, {@link #TYPE_MAILBOX}
     */
    void recordFault(final long timePs, final int host, final String line, final int type) {
        faultLog.trap(timePs, host, line, typeName(type));
    }

    /**
     * Records a call abandoned at the instruction budget.
     *
     * @param timePs simulated time of the NIC, ps ({@link FirmwareFaultLog#NO_TIME} if unknown)
     * @param host   the NIC's host index ({@link FirmwareFaultLog#NO_HOST} if unknown)
     * @param pc     where the hart stopped
     * @param symbol the pc as symbol+offset
     * @param type   the event type, or -1 (flow start), {@link #TYPE_PORT_INFO}, {@link #TYPE_MAILBOX}
     */
    void recordBudget(final long timePs, final int host, final long pc, final String symbol, final int type) {
        faultLog.budget(timePs, host, pc, symbol, typeName(type));
    }

    private static String typeName(final int type) {
        if (type == TYPE_PORT_INFO) {
            return "doca_pcc_dev_user_port_info_changed call";
        }
        if (type == TYPE_MAILBOX) {
            return "doca_pcc_dev_user_mailbox_handle call";
        }
        return type < 0 ? "flow start" : PccEventType.name(type) + " event";
    }

    /** The "event type" of a port-info call in fault records. */
    static final int TYPE_PORT_INFO = -2;
    /** The "event type" of a host mailbox call in fault records. */
    static final int TYPE_MAILBOX = -3;

    /**
     * One line for summaries: the firmware, its algorithm and the faults so far; when set-up calls of
     * its init failed, their number and the first ({@link FirmwareDeclarations#failedSetupCalls()}).
     *
     * @return the line
     */
    public String summaryLine() {
        final StringBuilder b = new StringBuilder("firmware           ").append(image.path());
        if (declarations.algoIndex() >= 0) {
            for (final FirmwareDeclarations.Algorithm a : declarations.algorithms()) {
                if (a.index() == declarations.algoIndex()) {
                    b.append(String.format(Locale.ROOT, " (algorithm %d \"%s\" v%d.%d)", a.id(), a.description(), a.major(), a.minor()));
                }
            }
        }
        b.append("; ").append(model.name()).append(" model; ").append(faultLog.summary());
        final List<String> failed = declarations.failedSetupCalls();
        if (!failed.isEmpty()) {
            b.append(String.format(Locale.ROOT, "; %d set-up call%s of doca_pcc_dev_user_init failed (not declared), first: %s",
                failed.size(), failed.size() == 1 ? "" : "s", failed.get(0)));
        }
        return b.toString();
    }
}
