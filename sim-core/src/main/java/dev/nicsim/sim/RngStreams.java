package dev.nicsim.sim;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * One seeded random stream per component, derived from the scenario seed and a stable component
 * id, so adding a component never changes another's numbers (see docs/architecture.md "Determinism").
 *
 * <p>Thread-safety: stateless factory; each returned stream is not thread-safe.
 */
public final class RngStreams {
    private RngStreams() {
    }

    /**
     * The stream of one component.
     *
     * @param seed        scenario seed
     * @param componentId stable id, e.g. {@code "switch/leaf0/wred"} or {@code "workload"}
     * @return a new generator; the same arguments always give the same sequence
     */
    public static SplittableRandom stream(final long seed, final String componentId) {
        long h = 0xcbf29ce484222325L; // FNV-1a 64
        for (final byte b : componentId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return new SplittableRandom(mix(seed ^ mix(h)));
    }

    /**
     * SplitMix64 finaliser.
     *
     * @param z input
     * @return mixed bits
     */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
