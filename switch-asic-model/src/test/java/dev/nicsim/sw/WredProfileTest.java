package dev.nicsim.sw;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WredProfile#markProbability} and Eq. (3) at exact points, the LDCP draft §2.1 and §2.3. */
class WredProfileTest {
    // Kmin = 20 000 B, Kmax = 120 000 B, Pmax = 0.2: p(q) = (q - 20 000) / 100 000 * 0.2 in [Kmin, Kmax)
    private final WredProfile w = new WredProfile(20_000, 120_000, 0.2, true, 50_000);

    @Test
    void zeroBelowKmin() {
        assertEquals(0.0, w.markProbability(0));
        assertEquals(0.0, w.markProbability(19_999));
        // q = Kmin: (20 000 - 20 000) / 100 000 * 0.2 = 0
        assertEquals(0.0, w.markProbability(20_000));
    }

    @Test
    void linearBetweenKminAndKmax() {
        // (70 000 - 20 000) / 100 000 * 0.2 = 0.1
        assertEquals(0.1, w.markProbability(70_000), 1e-12);
        // (45 000 - 20 000) / 100 000 * 0.2 = 0.05
        assertEquals(0.05, w.markProbability(45_000), 1e-12);
        // (119 999 - 20 000) / 100 000 * 0.2 = 0.199998 (just below Pmax, still not 1)
        assertEquals(0.199998, w.markProbability(119_999), 1e-12);
    }

    @Test
    void oneAtAndAboveKmax() {
        assertEquals(1.0, w.markProbability(120_000));
        assertEquals(1.0, w.markProbability(Long.MAX_VALUE));
    }

    @Test
    void stepProfileWhenKminEqualsKmax() {
        // DCTCP-style single threshold K = 50 000: 0 below, 1 at K
        final WredProfile step = new WredProfile(50_000, 50_000, 1.0, true, WredProfile.NEVER_DROP);
        assertEquals(0.0, step.markProbability(49_999));
        assertEquals(1.0, step.markProbability(50_000));
    }

    @Test
    void notEctDroppedAtOrAboveKNeverBelow() {
        // Eq. (3): q < K no drop, q >= K drop, K = 50 000
        assertFalse(w.dropsNotEct(0));
        assertFalse(w.dropsNotEct(49_999));
        assertTrue(w.dropsNotEct(50_000));
        assertTrue(w.dropsNotEct(50_001));
        final WredProfile never = new WredProfile(0, 10, 1.0, true, WredProfile.NEVER_DROP);
        assertFalse(never.dropsNotEct(Long.MAX_VALUE - 1));
    }

    @Test
    void rejectsBadValuesNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WredProfile(-1, 10, 0.1, true, 0))
            .getMessage().contains("kminBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WredProfile(10, 9, 0.1, true, 0))
            .getMessage().contains("kmaxBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WredProfile(0, 10, 1.5, true, 0))
            .getMessage().contains("pmax"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WredProfile(0, 10, Double.NaN, true, 0))
            .getMessage().contains("pmax"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new WredProfile(0, 10, 0.1, true, -5))
            .getMessage().contains("notEctDropBytes"));
    }
}
