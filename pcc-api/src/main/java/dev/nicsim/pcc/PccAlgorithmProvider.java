package dev.nicsim.pcc;

import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * Service-provider interface through which nicsim finds algorithms with
 * {@link ServiceLoader}: list the implementing class in
 * {@code META-INF/services/dev.nicsim.pcc.PccAlgorithmProvider} of a jar on the class path and the
 * algorithm can be named in a scenario without touching nicsim.
 *
 * <p>Implementations must have a public no-argument constructor and be stateless.
 */
public interface PccAlgorithmProvider {

    /**
     * The name used in scenarios.
     *
     * @return lower-case name, unique among providers (e.g. {@code "dcqcn"})
     */
    String name();

    /**
     * One-line description naming the specification the algorithm follows.
     *
     * @return description
     */
    String description();

    /**
     * The algorithm's parameters.
     *
     * @return descriptors with ids dense from 0
     */
    List<PccParameter> parameters();

    /**
     * Fresh parameter values holding every default.
     *
     * @return new values object
     */
    default PccParameterValues defaults() {
        return new PccParameterValues(parameters());
    }

    /**
     * Makes the instances for the cores of one CC processor (one NIC): the emulator asks the
     * supplier once per core, the direct processor once. The default makes independent instances
     * with {@link #create}; a provider whose instances of one processor share state (firmware:
     * one memory image per NIC, as the cores of a Data Path Accelerator share theirs) overrides it.
     *
     * @param values parameter values, validated
     * @return a supplier of instances, to be called on the processor's thread
     * @throws IllegalArgumentException if parameter values are inconsistent with each other
     */
    default Supplier<PccAlgorithm> processorInstances(final PccParameterValues values) {
        return () -> create(values);
    }

    /**
     * Creates an algorithm instance for one processor.
     *
     * @param values parameter values, validated
     * @return a new instance with its own counters
     * @throws IllegalArgumentException if parameter values are inconsistent with each other
     */
    PccAlgorithm create(PccParameterValues values);
}
