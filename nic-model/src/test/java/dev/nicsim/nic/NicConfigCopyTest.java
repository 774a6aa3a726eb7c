package dev.nicsim.nic;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.fail;

/** {@link NicConfig#copy()} carries every field, whatever its value, and is a separate object. */
class NicConfigCopyTest {

    @Test
    void copyCarriesEveryFieldSetAwayFromItsDefault() throws IllegalAccessException {
        final NicConfig c = new NicConfig();
        int k = 100;
        for (final Field f : NicConfig.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            k++;
            if (f.getType() == int.class) {
                f.setInt(c, k);
            } else if (f.getType() == long.class) {
                f.setLong(c, 1_000_000L * k);
            } else if (f.getType() == boolean.class) {
                f.setBoolean(c, !f.getBoolean(c));
            } else {
                fail("a field of a type this test does not set: " + f);
            }
        }
        final NicConfig d = c.copy();
        assertNotSame(c, d);
        for (final Field f : NicConfig.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                assertEquals(f.get(c), f.get(d), f.getName());
            }
        }
        final int mtu = d.mtuBytes;
        c.mtuBytes = 1;
        assertEquals(mtu, d.mtuBytes);
    }
}
