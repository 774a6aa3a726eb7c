package dev.nicsim.pcc;

import java.util.List;

/**
 * Service-provider interface through which nicsim finds algorithms with
 * {@link java.util.ServiceLoader}: list the implementing class in
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
     * Creates an algorithm instance for one processor.
     *
     * @param values parameter values, validated
     * @return a new instance with its own counters
     * @throws IllegalArgumentException if parameter values are inconsistent with each other
     */
    PccAlgorithm create(PccParameterValues values);
}
