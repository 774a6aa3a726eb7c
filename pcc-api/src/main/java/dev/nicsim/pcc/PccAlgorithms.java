package dev.nicsim.pcc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Finds algorithms on the class path through {@link ServiceLoader}.
 *
 * <p>Thread-safety: stateless; each call scans the class path afresh.
 */
public final class PccAlgorithms {
    private PccAlgorithms() {
    }

    /**
     * All providers on the class path, sorted by name.
     *
     * @return providers
     */
    public static List<PccAlgorithmProvider> all() {
        final List<PccAlgorithmProvider> list = new ArrayList<>();
        ServiceLoader.load(PccAlgorithmProvider.class).forEach(list::add);
        list.sort(Comparator.comparing(PccAlgorithmProvider::name));
        return list;
    }

    /**
     * The provider with the given name.
     *
     * @param name algorithm name, case-insensitive
     * @return the provider
     * @throws IllegalArgumentException if none has that name; the message lists the known names
     */
    public static PccAlgorithmProvider byName(final String name) {
        final List<PccAlgorithmProvider> all = all();
        for (final PccAlgorithmProvider p : all) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown algorithm '" + name + "'; known: "
            + String.join(", ", all.stream().map(PccAlgorithmProvider::name).toList()));
    }
}
