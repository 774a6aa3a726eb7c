package dev.nicsim.scenario;

import dev.nicsim.microcode.firmware.FirmwareException;
import dev.nicsim.microcode.firmware.FirmwareLayout;
import dev.nicsim.microcode.firmware.FirmwareNotificationPoint;
import dev.nicsim.microcode.firmware.FirmwareProvider;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameterValues;
import dev.nicsim.riscv.CycleModel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Reads {@code algorithm} and the program parts of {@code firmware} (docs/scenarios.md): a Java
 * algorithm by name or a DOCA PCC firmware ELF on a machine model, its parameters validated against
 * the provider's ranges, the notification-point program, its host's mailbox message and the probe
 * format. ELFs and models are loaded here, so a bad one fails at load with one line naming the field.
 *
 * <p>Thread-safety: stateless.
 */
final class FirmwareSection {
    private static final String FIRMWARE_MODELS = "expected bf3-dpa, e31, ibex or a model YAML file";

    private FirmwareSection() {
    }

    /**
     * An algorithm as the scenario holds it, with the provider loaded to validate it (and the
     * firmware's mailbox callback and machine model, which the other sections check against).
     *
     * @param algorithm the scenario's data
     * @param provider  the provider loaded from it
     */
    record Validated(Scenario.Algorithm algorithm, PccAlgorithmProvider provider) {
    }

    /**
     * Reads {@code algorithm}, loading the firmware ELF or finding the Java algorithm to check it
     * and its parameters.
     *
     * @param a            the {@code algorithm} mapping
     * @param scenarioFile the scenario file (relative paths start there)
     * @param emulator     the emulator settings (the firmware's instruction budget)
     * @return the algorithm with its validated parameters, and its provider
     * @throws ScenarioException naming the field of any bad input
     */
    static Validated algorithm(final YamlFields a, final Path scenarioFile, final Scenario.Emulator emulator) {
        final PccAlgorithmProvider provider;
        Path firmwarePath = null;
        CycleModel model = null;
        if (a.has("firmware")) {
            // a firmware image replaces the named Java algorithm; the name, if given, is documentation
            a.string("name", "");
            final Path p = existing(a, "firmware", scenarioFile);
            // the cores' machine model: bf3-dpa (the default), e31, ibex or a YAML file next to the scenario
            final String modelName = a.string("firmware_model", CycleModel.BF3_DPA);
            model = firmwareModel(a, scenarioFile, modelName);
            try {
                provider = FirmwareProvider.load(p, emulator.maxInstructionsPerEvent(), model);
            } catch (final FirmwareException e) {
                throw a.fieldError("firmware", e.getMessage());
            }
            firmwarePath = p;
        } else {
            final String name = a.string("name");
            try {
                provider = PccAlgorithms.byName(name);
            } catch (final IllegalArgumentException e) {
                throw a.fieldError("name", e.getMessage());
            }
        }
        final PccParameterValues values = provider.defaults();
        final YamlFields params = a.childOrEmpty("params");
        for (final Map.Entry<String, String> e : params.scalars().entrySet()) {
            final double v;
            try {
                v = Double.parseDouble(e.getValue());
            } catch (final NumberFormatException ex) {
                throw params.fieldError(e.getKey(), "expected a number, got '" + e.getValue() + "'");
            }
            try {
                values.set(e.getKey(), v);
            } catch (final IllegalArgumentException ex) {
                throw params.fieldError(e.getKey(), ex.getMessage());
            }
        }
        a.finish();
        return new Validated(new Scenario.Algorithm(provider.name(), values, firmwarePath, model), provider);
    }

    /** A path field naming a file that must exist: next to the scenario, then in the current directory. */
    private static Path existing(final YamlFields f, final String key, final Path scenarioFile) {
        final String elf = f.string(key);
        Path p = ScenarioLoader.nextToScenario(f, key, elf, scenarioFile);
        if (!Files.exists(p)) {
            p = Path.of(elf);
        }
        if (!Files.exists(p)) {
            throw f.fieldError(key, "no such file '" + elf + "' (looked next to the scenario and in the current directory)");
        }
        return p;
    }

    /**
     * Resolves {@code algorithm.firmware_model}: a model YAML file next to the scenario, else a built-in
     * name ({@code bf3-dpa}, {@code e31}, {@code ibex}, any case), else a model YAML file in the current
     * directory (docs/scenarios.md, "algorithm").
     *
     * @throws ScenarioException one line naming the field: no such file, a directory, or the file's own error
     */
    private static CycleModel firmwareModel(final YamlFields a, final Path scenarioFile, final String modelName) {
        Path mp = ScenarioLoader.nextToScenario(a, "firmware_model", modelName, scenarioFile);
        if (!Files.isRegularFile(mp)) {
            for (final String builtIn : new String[] {CycleModel.BF3_DPA, "e31", "ibex"}) {
                if (builtIn.equalsIgnoreCase(modelName)) {
                    return CycleModel.byName(modelName);
                }
            }
            if (!Files.exists(mp)) {
                mp = Path.of(modelName);
            }
        }
        if (!Files.exists(mp)) {
            throw a.fieldError("firmware_model", "no such file '" + modelName
                + "' (looked next to the scenario and in the current directory; " + FIRMWARE_MODELS + ")");
        }
        if (Files.isDirectory(mp)) {
            throw a.fieldError("firmware_model", "'" + modelName + "' is a directory (" + FIRMWARE_MODELS + ")");
        }
        try {
            return CycleModel.load(mp);
        } catch (final IllegalArgumentException e) {
            throw a.fieldError("firmware_model", e.getMessage() + " (" + FIRMWARE_MODELS + ")");
        }
    }

    /**
     * {@code firmware.np}: the notification-point program of the receiving NICs, resolved as
     * {@code algorithm.firmware} is (next to the scenario, then the current directory), on the
     * algorithm's firmware model ({@code bf3-dpa} for a Java algorithm), with the emulator's budget;
     * reads {@code firmware.np_mailbox} and finishes the {@code firmware} mapping.
     *
     * @param fw           the {@code firmware} mapping
     * @param scenarioFile the scenario file
     * @param provider     the algorithm's provider (its firmware's machine model)
     * @param emulator     the emulator settings (the instruction budget)
     * @param probe        the probe format (the default NP host message with IFA2)
     * @return the program, or null for the NICs' hardware RTT responders
     * @throws ScenarioException naming the field of any bad input
     */
    static Scenario.NpFirmware npFirmware(final YamlFields fw, final Path scenarioFile, final PccAlgorithmProvider provider,
                                          final Scenario.Emulator emulator, final Scenario.Probe probe) {
        if (!fw.has("np")) {
            if (fw.has("np_mailbox")) {
                throw fw.fieldError("np_mailbox", "the NP host's mailbox message goes to a notification-point program;"
                    + " give firmware.np");
            }
            fw.finish();
            return null;
        }
        final Path p = existing(fw, "np", scenarioFile);
        final CycleModel model = provider instanceof FirmwareProvider rp ? rp.model() : CycleModel.bf3Dpa();
        final FirmwareNotificationPoint program;
        try {
            program = FirmwareNotificationPoint.load(p, emulator.maxInstructionsPerEvent(), model);
        } catch (final FirmwareException e) {
            throw fw.fieldError("np", e.getMessage());
        }
        final String mailboxHex = npMailbox(fw, program, probe);
        fw.finish();
        return new Scenario.NpFirmware(p, mailboxHex);
    }

    /**
     * {@code firmware.probe}: {@code format} ({@code ccmad} or {@code ifa2}), {@code ifa2_gns} and
     * {@code ifa2_hop_limit}, the RP host's {@code doca_pcc_set_ifa2_probe_packet_format},
     * {@code doca_pcc_rp_set_ifa2_gns} and {@code doca_pcc_rp_set_ifa2_hop_limit} with DOCA's defaults (Addendum B.1).
     *
     * @param p the {@code firmware.probe} mapping (empty for CCMAD)
     * @return the probe format
     * @throws ScenarioException naming the field of any bad input
     */
    static Scenario.Probe probe(final YamlFields p) {
        final boolean ifa2 = "ifa2".equals(p.choice("format"));
        if (!ifa2) {
            for (final String k : new String[] {"ifa2_gns", "ifa2_hop_limit"}) {
                if (p.has(k)) {
                    throw p.fieldError(k, "only with format: ifa2 (CCMAD probes carry no IFA header)");
                }
            }
            p.finish();
            return Scenario.Probe.CCMAD;
        }
        final int gns = (int) p.integer("ifa2_gns");
        final int hopLimit = (int) p.integer("ifa2_hop_limit");
        p.finish();
        return new Scenario.Probe(true, gns, hopLimit);
    }

    /**
     * {@code firmware.np_mailbox}: the bytes the NP host application sends each NP process after start (hex, or
     * {@code none}); by default, with IFA2 probes and an NP program that defines the mailbox callback, the 4 bytes
     * {@code FE 00 00 00} NVIDIA's NP host sends (its hop limit 0xFE as a little-endian {@code uint32_t}, Addendum B.1).
     *
     * @return lower-case hex, or null for no message
     */
    private static String npMailbox(final YamlFields fw, final FirmwareNotificationPoint program, final Scenario.Probe probe) {
        final boolean handler = program.image().hasMailboxHandler();
        if (!fw.has("np_mailbox")) {
            return probe.ifa2() && handler ? "fe000000" : null;
        }
        final String text = fw.string("np_mailbox").trim();
        if ("none".equals(text)) {
            return null;
        }
        final String digits = text.replaceAll("[\\s_:]", "").toLowerCase(Locale.ROOT);
        final String hex = digits.startsWith("0x") ? digits.substring(2) : digits;
        if (!hex.matches("[0-9a-f]*") || hex.length() % 2 != 0) {
            throw fw.fieldError("np_mailbox", "expected the bytes as pairs of hex digits (spaces allowed), e.g. 'FE 00 00 00',"
                + " or 'none', got '" + text + "'");
        }
        final int limit = FirmwareLayout.HOST_MAILBOX_BYTES;
        if (hex.length() / 2 > limit) {
            throw fw.fieldError("np_mailbox", "a request holds at most " + limit + " bytes, got " + hex.length() / 2);
        }
        if (!handler) {
            throw fw.fieldError("np_mailbox", program.image().path() + " defines no doca_pcc_dev_user_mailbox_handle, so nothing"
                + " would receive the message; define it in the program or drop firmware.np_mailbox");
        }
        return hex;
    }
}
