package dev.nicsim.sw;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults and validation of {@link RcmConfig} and of the queueing fields of {@link SwitchConfig}. */
class RcmConfigTest {
    @Test
    void everythingOffByDefault() {
        final SwitchConfig c = new SwitchConfig().validate();
        assertEquals(SwitchConfig.Queueing.OUTPUT_QUEUED, c.queueing);
        assertEquals(100_000, c.voqBytes);          // the RCM paper §4.1: 100 KB queues
        assertEquals(100_000, c.outputQueueBytes);
        final RcmConfig r = c.rcm;
        assertFalse(r.anyEnabled());
        assertFalse(r.detection || r.flowRecognition || r.regionalControl || r.adaptiveRouting);
        assertEquals(63, r.fbMaxQuantised());         // 6 bits
        assertEquals(1.0 / 126, r.effectiveGd());    // F_bmax x G_d = 63 / 126 = 1/2 (the RCM paper §3.4)
        assertEquals(7, r.notificationPriority);
        assertEquals(0x7F, r.priorityMask);
    }

    @Test
    void copyIsDeep() {
        final SwitchConfig c = new SwitchConfig();
        c.rcm.detection = true;
        c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        final SwitchConfig d = c.copy();
        assertNotSame(c.rcm, d.rcm);
        assertTrue(d.rcm.detection);
        assertEquals(SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED, d.queueing);
        c.rcm.detection = false;
        assertTrue(d.rcm.detection);
    }

    @Test
    void copyCarriesEveryFieldAndOwnsItsArrays() throws IllegalAccessException {
        final SwitchConfig c = new SwitchConfig();
        c.bufferBytes = 123_456;
        c.pfcAlpha = 0.25;
        c.camDepth = 3;
        c.ifa2Enabled = true;
        c.rcm.detourIdlePs = 777;
        c.rcm.wq = 0.125;
        final SwitchConfig d = c.copy();
        for (final Field f : SwitchConfig.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            final Object a = f.get(c);
            final Object b = f.get(d);
            if (a != null && a.getClass().isArray()) {
                assertNotSame(a, b, f.getName());
                assertEquals(Arrays.deepToString(new Object[] {a}), Arrays.deepToString(new Object[] {b}),
                    f.getName());
            } else if (f.getType() != RcmConfig.class) {
                assertEquals(a, b, f.getName());
            }
        }
        for (final Field f : RcmConfig.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                assertEquals(f.get(c.rcm), f.get(d.rcm), "rcm." + f.getName());
            }
        }
        assertEquals(777, d.rcm.detourIdlePs);
        c.xoffBytes[0] = 1;
        assertNotEquals(1, d.xoffBytes[0]);
    }

    @Test
    void validateNamesTheBadField() {
        assertField("rcm.priorityMask must be in 1..0xFF", c -> c.rcm.priorityMask = 0);
        assertField("rcm.priorityMask must not include rcm.notificationPriority", c -> c.rcm.priorityMask = 0xFF);
        assertField("rcm.notificationPriority must be in 0..7", c -> c.rcm.notificationPriority = 8);
        assertField("rcm.wq must be", c -> c.rcm.wq = -1);
        assertField("rcm.qEqBytes must be > 0", c -> c.rcm.qEqBytes = 0);
        assertField("rcm.fbBits must be in 1..16", c -> c.rcm.fbBits = 0);
        assertField("rcm.w must be in [0, 1]", c -> c.rcm.w = 1.5);
        assertField("rcm.gd must be 0 (auto)", c -> c.rcm.gd = 0.02); // 63 x 0.02 = 1.26 > 1
        assertField("rcm.sampleBytes must be >= 64", c -> c.rcm.sampleBytes = 10);
        assertField("rcm.notificationLifetimePs must be > 0", c -> c.rcm.notificationLifetimePs = 0);
        assertField("rcm.windowPeriodPs must be > 0", c -> c.rcm.windowPeriodPs = 0);
        assertField("rcm.harmfulMinEntries must be in 1..camDepth (16)", c -> c.rcm.harmfulMinEntries = 17);
        assertField("rcm.detourTableEntries must be a power of two", c -> c.rcm.detourTableEntries = 1000);
        assertField("rcm.detourIdlePs must be > 0", c -> c.rcm.detourIdlePs = 0);
        assertField("rcm.flowRecognition needs camDepth >= 1", c -> {
            c.camDepth = 0;
            c.rcm.harmfulMinEntries = 1;
            c.rcm.flowRecognition = true;
        });
        assertField("rcm.regionalControl needs rcm.detection", c -> c.rcm.regionalControl = true);
        assertField("rcm.regionalControl needs queueing = INPUT_OUTPUT_QUEUED", c -> {
            c.rcm.detection = true;
            c.rcm.regionalControl = true;
        });
        assertField("rcm.adaptiveRouting needs rcm.detection and rcm.flowRecognition", c -> {
            c.rcm.detection = true;
            c.rcm.adaptiveRouting = true;
        });
        assertField("rcm must not be null", c -> c.rcm = null);
        assertField("queueing must be", c -> c.queueing = null);
        assertField("voqBytes must be >= maxFrameBytes (4178)", c -> {
            c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
            c.voqBytes = 4_000;
        });
        assertField("outputQueueBytes must be >= maxFrameBytes (4178)", c -> {
            c.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
            c.outputQueueBytes = 100;
        });
        // valid combinations
        final SwitchConfig ok = new SwitchConfig();
        ok.queueing = SwitchConfig.Queueing.INPUT_OUTPUT_QUEUED;
        ok.rcm.detection = true;
        ok.rcm.flowRecognition = true;
        ok.rcm.regionalControl = true;
        ok.rcm.adaptiveRouting = true;
        ok.rcm.gd = 1.0 / 63; // the largest decrease is 100 %
        ok.validate();
    }

    private static void assertField(final String messageStart, final Consumer<SwitchConfig> breakIt) {
        final SwitchConfig c = new SwitchConfig();
        breakIt.accept(c);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::validate);
        assertTrue(e.getMessage().startsWith(messageStart), "message: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line");
    }
}
