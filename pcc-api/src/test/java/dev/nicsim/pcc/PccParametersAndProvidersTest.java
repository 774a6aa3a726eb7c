package dev.nicsim.pcc;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Parameter descriptors and value sets (raw 16.16 and integer encodings, range and name checks) and
 * the provider registry, with two test providers registered through META-INF/services.
 */
class PccParametersAndProvidersTest {

    static final List<PccParameter> PARAMS = List.of(
        new PccParameter(0, "g", PccParameter.Kind.FIXED_16_16, 1.0 / 16, 0, 1, "fraction", "gain"),
        new PccParameter(1, "timer_ns", PccParameter.Kind.INTEGER, 55_000, 1, 1_000_000, "ns", "timer"),
        new PccParameter(2, "ai", PccParameter.Kind.FIXED_16_16, -0.5, -1.25, 2.5, "x", "step"));

    @Test
    void rawEncodingsAndBounds() {
        final PccParameter g = PARAMS.get(0);
        final PccParameter t = PARAMS.get(1);
        final PccParameter ai = PARAMS.get(2);
        assertEquals(4096, g.defaultRaw()); // 65536 / 16
        assertEquals(55_000, t.defaultRaw());
        assertEquals(-32_768, ai.defaultRaw());
        assertEquals(0, g.toRaw(0));
        assertEquals(65_536, g.toRaw(1));
        assertEquals(1, t.toRaw(1));
        assertEquals(1_000_000, t.toRaw(1_000_000));
        assertEquals(0.0625, g.fromRaw(4096));
        assertEquals(4096.0, t.fromRaw(4096));
        // 0.3 x 65536 = 19660.8, rounded to nearest
        assertEquals(19_661, g.toRaw(0.3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.toRaw(0));
        assertEquals("parameter 'timer_ns' = 0.0 is out of range [1, 1000000] ns", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> t.toRaw(1_000_001));
        e = assertThrows(IllegalArgumentException.class, () -> ai.toRaw(3));
        assertEquals("parameter 'ai' = 3.0 is out of range [-1.25, 2.5] x", e.getMessage());
        // bounds print as integers below 1e15 and as doubles from there on
        e = assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(0, "big", PccParameter.Kind.INTEGER, 0, 0, 1e15, "B", "d").toRaw(2e15));
        assertEquals("parameter 'big' = 2.0E15 is out of range [0, 1.0E15] B", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(0, "big", PccParameter.Kind.INTEGER, 0, 0, 999_999_999_999_999.0, "B", "d").toRaw(2e15));
        assertEquals("parameter 'big' = 2.0E15 is out of range [0, 999999999999999] B", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> g.toRaw(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> g.toRaw(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(1, "u", PccParameter.Kind.INTEGER, Double.POSITIVE_INFINITY, 0,
                Double.POSITIVE_INFINITY, "u", "unbounded").toRaw(Double.POSITIVE_INFINITY));
        e = assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(3, " ", PccParameter.Kind.INTEGER, 0, 0, 1, "u", "d"));
        assertEquals("parameter 3 has no name", e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(3, null, PccParameter.Kind.INTEGER, 0, 0, 1, "u", "d"));
        e = assertThrows(IllegalArgumentException.class,
            () -> new PccParameter(0, "x", PccParameter.Kind.INTEGER, -1, 0, 1, "u", "d"));
        assertEquals("parameter x: default -1.0 outside [0.0, 1.0]", e.getMessage());
        // default equal to either bound is allowed
        new PccParameter(0, "lo", PccParameter.Kind.INTEGER, 0, 0, 1, "u", "d");
        new PccParameter(0, "hi", PccParameter.Kind.INTEGER, 1, 0, 1, "u", "d");
    }

    @Test
    void valuesByNameAndById() {
        final PccParameterValues v = new PccParameterValues(PARAMS);
        assertEquals(PARAMS, v.descriptors());
        assertSame(PARAMS.get(1), v.descriptor("timer_ns"));
        assertEquals(55_000, v.raw("timer_ns"));
        assertEquals(55_000.0, v.value("timer_ns"));
        assertEquals(-0.5, v.value("ai"));
        assertEquals(4096, v.rawInt(0));
        assertEquals("{g=0.0625, timer_ns=55000.0, ai=-0.5}", v.toString());
        final PccParameterValues w = new PccParameterValues(PARAMS);
        assertEquals(v, w);
        assertEquals(v.hashCode(), w.hashCode());
        assertSame(w, w.set("timer_ns", 10));
        assertNotEquals(v, w);
        assertNotEquals(v.hashCode(), w.hashCode());
        assertEquals(10, w.raw(1));
        assertNotEquals(v, new PccParameterValues(PARAMS.subList(0, 1)));
        assertNotEquals(v, "not values");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new PccParameterValues(List.of(PARAMS.get(1))));
        assertEquals("parameter timer_ns has id 1, expected 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new PccParameterValues(List.of(PARAMS.get(0),
            new PccParameter(1, "g", PccParameter.Kind.INTEGER, 0, 0, 1, "u", "d"))));
        assertEquals("parameter name repeated: g", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> v.raw("G"));
        assertEquals("unknown parameter 'G'; known: g, timer_ns, ai", e.getMessage());
    }

    @Test
    void providersAreFoundSortedAndByNameIgnoringCase() {
        final List<PccAlgorithmProvider> all = PccAlgorithms.all();
        assertEquals(List.of("Alpha", "zeta"), all.stream().map(PccAlgorithmProvider::name).toList());
        assertEquals("zeta", PccAlgorithms.byName("ZETA").name());
        assertEquals("Alpha", PccAlgorithms.byName("alpha").name());
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PccAlgorithms.byName("beta"));
        assertEquals("unknown algorithm 'beta'; known: Alpha, zeta", e.getMessage());
        final PccAlgorithmProvider p = PccAlgorithms.byName("alpha");
        assertEquals(new PccParameterValues(PARAMS), p.defaults());
        final Supplier<PccAlgorithm> instances = p.processorInstances(p.defaults().set("g", 0.5));
        final PccAlgorithm a = instances.get();
        final PccAlgorithm b = instances.get();
        assertNotSame(a, b, "one algorithm instance per processor");
        assertEquals(32_768, ((TestProviders.Fixed) a).g);
        assertEquals(100, a.handlerCycles(PccEventType.ACK), "the default handler cost");
    }
}
