package dev.nicsim.pcc;

import java.util.List;

/** Two providers registered in src/test/resources/META-INF/services for PccAlgorithms' tests. */
final class TestProviders {
    private TestProviders() {
    }

    /** An algorithm that does nothing and keeps its g parameter. */
    static final class Fixed implements PccAlgorithm {
        final int g;
        private final PccCounters counters = new PccCounters();

        Fixed(final PccParameterValues v) {
            g = v.rawInt(0);
        }

        @Override
        public int contextWords() {
            return 1;
        }

        @Override
        public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes, final PccResult result) {
        }

        @Override
        public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes, final PccResult result) {
        }

        @Override
        public PccCounters counters() {
            return counters;
        }
    }

    /** Provider "zeta", registered first so that sorting is visible. */
    public static final class Zeta implements PccAlgorithmProvider {
        @Override
        public String name() {
            return "zeta";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public List<PccParameter> parameters() {
            return PccParametersAndProvidersTest.PARAMS;
        }

        @Override
        public PccAlgorithm create(final PccParameterValues values) {
            return new Fixed(values);
        }
    }

    /** Provider "Alpha". */
    public static final class Alpha implements PccAlgorithmProvider {
        @Override
        public String name() {
            return "Alpha";
        }

        @Override
        public String description() {
            return "test";
        }

        @Override
        public List<PccParameter> parameters() {
            return PccParametersAndProvidersTest.PARAMS;
        }

        @Override
        public PccAlgorithm create(final PccParameterValues values) {
            return new Fixed(values);
        }
    }
}
