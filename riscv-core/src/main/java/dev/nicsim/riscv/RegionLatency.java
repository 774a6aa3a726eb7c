package dev.nicsim.riscv;

/**
 * Decides, per access, how many cycles a memory region adds to a load or AMO beyond the cycle
 * model's load latency (0 = as fast as the model's cache hit). This is the hook through which a
 * flow-context access costs what a context-cache model says (hit or miss): the emulator
 * registers a region for the context memory with a callback that asks its cache model.
 *
 * <p>Called on the executing thread, once per load/AMO that touches the region; it must not
 * allocate on the hot path and must be deterministic (same accesses in the same order give the
 * same answers).
 */
@FunctionalInterface
public interface RegionLatency {
    /**
     * Extra latency of one access.
     *
     * @param address   zero-extended byte address accessed
     * @param sizeBytes 1, 2, 4 or 8
     * @param store     {@code true} for the store half of an AMO or a store, {@code false} for a load
     * @param cycle     the issuing hart's current cycle
     * @return extra cycles, at least 0
     */
    int extraCycles(long address, int sizeBytes, boolean store, long cycle);
}
