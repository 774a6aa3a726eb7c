package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;

import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The provider code of every built-in algorithm, written once: name, description and parameters
 * come from the algorithm's {@link AlgorithmTable}, and {@link #create} refuses values made for
 * another algorithm, runs the algorithm's cross-parameter check and calls its constructor. A
 * built-in provider is a public subclass with a no-argument constructor (for
 * {@link ServiceLoader}) that passes its table and constructor, and overrides
 * {@link #checkConsistent} when some parameter values exclude others.
 *
 * <p>Thread-safety: stateless once constructed (the table is immutable).
 */
abstract class TableProvider implements PccAlgorithmProvider {
    private final AlgorithmTable table;
    private final Function<PccParameterValues, PccAlgorithm> constructor;

    /**
     * @param table       the algorithm's declaration
     * @param constructor makes an instance from validated values
     */
    TableProvider(final AlgorithmTable table, final Function<PccParameterValues, PccAlgorithm> constructor) {
        this.table = table;
        this.constructor = constructor;
    }

    @Override
    public final String name() {
        return table.name();
    }

    @Override
    public final String description() {
        return table.description();
    }

    @Override
    public final List<PccParameter> parameters() {
        return table.parameters();
    }

    /**
     * Creates an instance with its own counters.
     *
     * @param values parameter values of this provider, each already range-checked
     * @return a new instance
     * @throws IllegalArgumentException if the values belong to another algorithm ("parameter values
     *                                  are not NAME's: ..."), or {@link #checkConsistent} rejects them
     */
    @Override
    public final PccAlgorithm create(final PccParameterValues values) {
        if (!values.descriptors().equals(table.parameters())) {
            throw new IllegalArgumentException("parameter values are not " + table.name() + "'s: " + values);
        }
        checkConsistent(values);
        return constructor.apply(values);
    }

    /**
     * Checks values that are each in range against each other; the default accepts all.
     *
     * @param values this provider's values
     * @throws IllegalArgumentException naming the parameters when they exclude each other
     */
    void checkConsistent(final PccParameterValues values) {
    }
}
