package dev.nicsim.riscv;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.nicsim.riscv.CycleModel.Predictor;

/**
 * Reads a custom {@link CycleModel} from YAML (kept apart so that the core itself does not need
 * snakeyaml on the class path).
 *
 * <p>Thread-safety: stateless.
 */
final class CycleModelYaml {
    private CycleModelYaml() {
    }

    private static final Set<String> TOP_KEYS = Set.of("name", "source", "latency", "issue", "div_data_dependent", "branch",
        "cores", "threads", "clock_hz", "issue_policy", "memory");
    /** The ISA options (kept apart from the timing keys). */
    private static final Set<String> ISA_KEYS = Set.of("extensions", "misaligned", "misaligned_extra_cycles");
    private static final Set<String> MEMORY_KEYS = Set.of("l1d", "l1i", "l2", "llc", "dram");
    private static final Set<String> LEVEL_KEYS = Set.of("size_bytes", "ways", "line_bytes", "latency");
    private static final Set<String> BRANCH_KEYS = Set.of("predictor", "mispredict_penalty", "taken_penalty", "jump_penalty",
        "bht_entries", "btb_entries", "ras_entries");

    /**
     * Loads a custom table. Format (every key optional except {@code name}; latencies and issue
     * cycles default to 1):
     * <pre>
     * name: my-core
     * source: "where the numbers come from"
     * latency: {alu: 1, load: 2, load_subword: 3, store: 1, mul: 5, mulh: 5, div: 33, csr: 3, amo: 2}
     * issue:   {div: 1}
     * div_data_dependent: false
     * branch: {predictor: bht, mispredict_penalty: 3, bht_entries: 128, btb_entries: 40, ras_entries: 2}
     * # or     {predictor: not-taken, taken_penalty: 1, jump_penalty: 1}
     * extensions: [zbb, zbs]        # optional extensions (default none: their instructions trap)
     * misaligned: extra_cycles      # perform (default) | trap | extra_cycles
     * misaligned_extra_cycles: 2    # with extra_cycles only
     * </pre>
     * Class keys: {@code alu, branch, jal, jalr, load, load_subword, store, mul, mulh, div, csr,
     * amo, fence, system}.
     *
     * @param file YAML file
     * @return the model
     * @throws IllegalArgumentException with a one-line message naming the file and key
     */
    static CycleModel load(final Path file) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(file + ": is a directory, not a model YAML file");
        }
        final Object root;
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
        } catch (final IOException e) {
            throw new IllegalArgumentException(file + ": cannot read model file: " + IoReasons.why(e));
        } catch (final RuntimeException e) {
            if (e.getCause() instanceof IOException io) { // snakeyaml wraps the reader's decoding error
                throw new IllegalArgumentException(file + ": cannot read model file: " + IoReasons.why(io));
            }
            throw new IllegalArgumentException(file + ": not valid YAML: " + e.getMessage().replace('\n', ' '));
        }
        return parse(root, file.toString());
    }

    /**
     * Loads a model shipped on the class path next to {@link CycleModel} ({@code bf3-dpa.yaml}).
     *
     * @param resource file name
     * @return the model
     * @throws IllegalStateException when the resource is missing or bad (a build error)
     */
    static CycleModel loadResource(final String resource) {
        try (java.io.InputStream in = CycleModelYaml.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("model resource " + resource + " is missing from the class path");
            }
            final Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            return parse(root, resource);
        } catch (final IOException | IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static CycleModel parse(final Object root, final String file) {
        try {
            if (!(root instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("top level must be a mapping");
            }
            for (final Object k : m.keySet()) {
                if (!TOP_KEYS.contains(String.valueOf(k)) && !ISA_KEYS.contains(String.valueOf(k))) {
                    throw new IllegalArgumentException("unknown key '" + k + "' (expected one of " + TOP_KEYS + " or " + ISA_KEYS + ")");
                }
            }
            final Object nm = m.get("name");
            if (nm == null) {
                throw new IllegalArgumentException("missing key 'name'");
            }
            final EnumMap<TimingClass, Integer> lat = classMap(m.get("latency"), "latency");
            final EnumMap<TimingClass, Integer> occ = classMap(m.get("issue"), "issue");
            final Object ddValue = m.get("div_data_dependent");
            if (ddValue != null && !(ddValue instanceof Boolean)) {
                throw new IllegalArgumentException("div_data_dependent = '" + ddValue + "' is not true or false");
            }
            final boolean dd = Boolean.TRUE.equals(ddValue);
            Predictor p = Predictor.NOT_TAKEN;
            int mis = 0;
            int taken = 0;
            int jump = 0;
            int bht = 0;
            int btb = 0;
            int ras = 0;
            final Map<?, ?> b = section(m, "branch", BRANCH_KEYS);
            if (b != null) {
                final String ps = b.get("predictor") == null ? "not-taken" : String.valueOf(b.get("predictor"));
                if (ps.equals("bht")) {
                    p = Predictor.BHT;
                } else if (!ps.equals("not-taken")) {
                    throw new IllegalArgumentException("branch.predictor '" + ps + "' must be 'bht' or 'not-taken'");
                }
                mis = intOf(b, "mispredict_penalty", "branch.");
                taken = intOf(b, "taken_penalty", "branch.");
                jump = intOf(b, "jump_penalty", "branch.");
                bht = intOf(b, "bht_entries", "branch.");
                btb = intOf(b, "btb_entries", "branch.");
                ras = intOf(b, "ras_entries", "branch.");
            }
            final CycleModel base = new CycleModel(String.valueOf(nm), m.get("source") == null ? file : String.valueOf(m.get("source")), lat,
                occ, dd, p, mis, taken, jump, bht, btb, ras);
            return isaOptions(m, withMachine(base, m));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage());
        }
    }

    /**
     * {@code extensions: [zbb, zbs]} (default none) and {@code misaligned: perform | trap |
     * extra_cycles} with {@code misaligned_extra_cycles: N} (1 to 10000, required with
     * extra_cycles and only then; default perform).
     */
    private static CycleModel isaOptions(final Map<?, ?> m, final CycleModel timing) {
        final EnumSet<Isa.Extension> ext = EnumSet.noneOf(Isa.Extension.class);
        final Object e = m.get("extensions");
        if (e != null) {
            if (!(e instanceof List<?> list)) {
                throw new IllegalArgumentException("extensions = '" + e + "' is not a list (expected e.g. [zbb, zbs])");
            }
            for (final Object x : list) {
                try {
                    ext.add(Isa.Extension.valueOf(String.valueOf(x).toUpperCase(Locale.ROOT)));
                } catch (final IllegalArgumentException bad) {
                    throw new IllegalArgumentException("extensions: unknown extension '" + x + "' (expected zbb or zbs)");
                }
            }
        }
        final String policy = m.get("misaligned") == null ? "perform" : String.valueOf(m.get("misaligned"));
        final CycleModel.Misaligned mis;
        switch (policy) {
            case "perform": mis = CycleModel.Misaligned.PERFORM; break;
            case "trap": mis = CycleModel.Misaligned.TRAP; break;
            case "extra_cycles": mis = CycleModel.Misaligned.EXTRA_CYCLES; break;
            default: throw new IllegalArgumentException("misaligned = '" + policy + "' must be perform, trap or extra_cycles");
        }
        final boolean hasExtra = m.get("misaligned_extra_cycles") != null;
        if (hasExtra != (mis == CycleModel.Misaligned.EXTRA_CYCLES)) {
            throw new IllegalArgumentException(hasExtra ? "misaligned_extra_cycles is given but misaligned is not extra_cycles"
                : "misaligned: extra_cycles needs misaligned_extra_cycles (1 to 10000)");
        }
        return timing.withMisaligned(mis, intOf(m, "misaligned_extra_cycles", "")).withExtensions(ext);
    }

    /**
     * The machine keys (all optional): {@code cores}, {@code threads}, {@code clock_hz},
     * {@code issue_policy: fine-grained|barrel}, and {@code memory} with levels {@code l1d},
     * {@code l1i}, {@code l2}, {@code llc} (each {@code size_bytes, ways, line_bytes, latency})
     * and {@code dram: {latency}}; all four cache levels are required when {@code memory} is given.
     */
    private static CycleModel withMachine(final CycleModel base, final Map<?, ?> m) {
        if (m.get("cores") == null && m.get("threads") == null && m.get("clock_hz") == null && m.get("issue_policy") == null
            && m.get("memory") == null) {
            return base;
        }
        final int cores = m.get("cores") == null ? 1 : intOf(m, "cores", "");
        final int threads = m.get("threads") == null ? 1 : intOf(m, "threads", "");
        final Object hz = m.get("clock_hz");
        if (hz != null && !(hz instanceof Integer || hz instanceof Long)) {
            throw new IllegalArgumentException("clock_hz = '" + hz + "' is not a whole number of Hz (e.g. 1800000000)");
        }
        final long clockHz = hz == null ? 0 : ((Number) hz).longValue();
        if (hz != null && clockHz == 0) {
            throw new IllegalArgumentException("clock_hz = 0 is out of range [" + CycleModel.MIN_CLOCK_HZ + ", "
                + CycleModel.MAX_CLOCK_HZ + "] (1 MHz to 100 GHz, as a scenario's emulator.clock_ghz)");
        }
        final String pol = m.get("issue_policy") == null ? "fine-grained" : String.valueOf(m.get("issue_policy"));
        final Core.IssuePolicy policy;
        if (pol.equals("fine-grained")) {
            policy = Core.IssuePolicy.FINE_GRAINED;
        } else if (pol.equals("barrel")) {
            policy = Core.IssuePolicy.BARREL;
        } else {
            throw new IllegalArgumentException("issue_policy '" + pol + "' must be 'fine-grained' or 'barrel'");
        }
        MemoryHierarchy.Config mem = null;
        final Map<?, ?> mm = section(m, "memory", MEMORY_KEYS);
        if (mm != null) {
            final Object dram = mm.get("dram");
            if (!(dram instanceof Map<?, ?> dm) || dm.get("latency") == null) {
                throw new IllegalArgumentException("memory.dram must be a mapping with 'latency'");
            }
            mem = new MemoryHierarchy.Config(level(mm, "l1d"), level(mm, "l1i"), level(mm, "l2"), level(mm, "llc"),
                intOf(dm, "latency", "memory.dram."));
        }
        return base.withMachine(cores, threads, clockHz, policy, mem);
    }

    /**
     * Reads an optional nested mapping {@code m.key} whose keys must all be in {@code allowed}.
     *
     * @param m the enclosing mapping
     * @param key the nested mapping's key (also the prefix of its keys in error messages)
     * @param allowed the keys the nested mapping may hold
     * @return the nested mapping, or null when {@code key} is absent or null
     * @throws IllegalArgumentException one line naming the key: not a mapping, or an unknown nested key
     */
    private static Map<?, ?> section(final Map<?, ?> m, final String key, final Set<String> allowed) {
        final Object o = m.get(key);
        if (o == null) {
            return null;
        }
        if (!(o instanceof Map<?, ?> sub)) {
            throw new IllegalArgumentException("'" + key + "' must be a mapping");
        }
        for (final Object k : sub.keySet()) {
            if (!allowed.contains(String.valueOf(k))) {
                throw new IllegalArgumentException("unknown key '" + key + "." + k + "' (expected one of " + allowed + ")");
            }
        }
        return sub;
    }

    private static MemoryHierarchy.Level level(final Map<?, ?> mm, final String name) {
        final Object o = mm.get(name);
        if (!(o instanceof Map<?, ?> l)) {
            throw new IllegalArgumentException("memory." + name + " must be a mapping of size_bytes, ways, line_bytes, latency");
        }
        for (final Object k : l.keySet()) {
            if (!LEVEL_KEYS.contains(String.valueOf(k))) {
                throw new IllegalArgumentException("unknown key 'memory." + name + "." + k + "' (expected one of " + LEVEL_KEYS + ")");
            }
        }
        for (final String k : LEVEL_KEYS) {
            if (l.get(k) == null) {
                throw new IllegalArgumentException("missing key 'memory." + name + "." + k + "'");
            }
        }
        final String prefix = "memory." + name + ".";
        try {
            return new MemoryHierarchy.Level(intOf(l, "size_bytes", prefix), intOf(l, "ways", prefix), intOf(l, "line_bytes", prefix),
                intOf(l, "latency", prefix));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith(prefix) ? e.getMessage() : prefix + e.getMessage());
        }
    }

    private static int intOf(final Map<?, ?> m, final String key, final String prefix) {
        final Object v = m.get(key);
        if (v == null) {
            return 0;
        }
        if (v instanceof Long || v instanceof java.math.BigInteger) {
            throw new IllegalArgumentException(prefix + key + " = " + v + " is out of range (above 2147483647)");
        }
        if (!(v instanceof Integer i)) {
            throw new IllegalArgumentException(prefix + key + " = '" + v + "' is not an integer");
        }
        return i;
    }

    private static EnumMap<TimingClass, Integer> classMap(final Object o, final String what) {
        final EnumMap<TimingClass, Integer> out = new EnumMap<>(TimingClass.class);
        if (o == null) {
            return out;
        }
        if (!(o instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("'" + what + "' must be a mapping of class to cycles");
        }
        for (final Map.Entry<?, ?> e : m.entrySet()) {
            final TimingClass c;
            try {
                c = TimingClass.valueOf(String.valueOf(e.getKey()).toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException x) {
                throw new IllegalArgumentException("unknown class '" + what + "." + e.getKey() + "'");
            }
            if (e.getValue() instanceof Long || e.getValue() instanceof java.math.BigInteger) {
                throw new IllegalArgumentException(what + "." + e.getKey() + " = " + e.getValue() + " is out of range [1, 10000]");
            }
            if (!(e.getValue() instanceof Integer i)) {
                throw new IllegalArgumentException(what + "." + e.getKey() + " = '" + e.getValue() + "' is not an integer");
            }
            out.put(c, i);
        }
        return out;
    }
}
