package dev.nicsim.traces.replay;

import net.openhft.chronicle.core.analytics.AnalyticsFacade;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chronicle Queue never reaches the network: analytics disabled and absent, and after writing and
 * reading a trace none of Chronicle's classes that look up host names or addresses or open
 * sockets has been loaded; its generated (garbage-free) method writer is in use.
 */
class ChronicleSettingsTest {
    @TempDir
    Path dir;

    private static Class<?> loaded(final String name) throws Exception {
        final Method m = ClassLoader.class.getDeclaredMethod("findLoadedClass", String.class);
        m.setAccessible(true); // the test JVM opens java.lang to the class path (nicsim.jvmArgs)
        return (Class<?>) m.invoke(ChronicleSettingsTest.class.getClassLoader(), name);
    }

    @Test
    void noAnalyticsNoHostLookupsNoSockets() throws Exception {
        final Path t = dir.resolve("t");
        final TraceHeader h = new TraceHeader();
        h.origin = TraceHeader.ORIGIN_CAPTURE;
        try (ChronicleTraceWriter w = ChronicleTraceWriter.create(t, h)) {
            w.listener(0).onFlowEnd(1, 10);
            w.finish();
        }
        try (ChronicleTraceReader r = ChronicleTraceReader.open(t)) {
            assertEquals(3, r.read(new TraceRoundTripTest.Lines())); // header, flow end, end
        }
        assertEquals("true", System.getProperty("chronicle.analytics.disable"));
        assertFalse(AnalyticsFacade.isEnabled());
        // the analytics artifact is excluded from the build (parent pom)
        assertThrows(ClassNotFoundException.class, () -> Class.forName("net.openhft.chronicle.analytics.Analytics"));
        // the probe sees classes that are loaded: the queue implementation just used
        assertEquals("net.openhft.chronicle.queue.impl.single.SingleChronicleQueue",
            loaded("net.openhft.chronicle.queue.impl.single.SingleChronicleQueue").getName());
        for (final String name : new String[] {
            "net.openhft.chronicle.core.OS$HostnameHolder",
            "net.openhft.chronicle.core.OS$IPAddressHolder",
            "net.openhft.chronicle.wire.channel.impl.TCPChronicleChannel",
            "net.openhft.chronicle.wire.internal.HTTPMarshallableOut"}) {
            assertNull(loaded(name), name + " was loaded");
        }
        // the JVM flags let Chronicle compile its method writers (no reflective proxy fallback)
        assertTrue(ChronicleSetup.codegenAvailable());
    }
}
