package dev.nicsim.microcode.algorithms;

import dev.nicsim.pcc.PccAlgorithmProvider;
import dev.nicsim.pcc.PccAlgorithms;
import dev.nicsim.pcc.PccParameter;
import dev.nicsim.pcc.PccParameterValues;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ServiceLoader registration, parameter descriptors and range checks. */
class ProvidersTest {

    @Test
    void serviceLoaderFindsAllFourByName() {
        assertInstanceOf(LdcpProvider.class, PccAlgorithms.byName("ldcp"));
        assertInstanceOf(LdcpPccProvider.class, PccAlgorithms.byName("ldcp-pcc"));
        assertInstanceOf(DctcpProvider.class, PccAlgorithms.byName("DCTCP")); // case-insensitive
        assertInstanceOf(DcqcnProvider.class, PccAlgorithms.byName("dcqcn"));
        assertInstanceOf(LdcpAlgorithm.class, PccAlgorithms.byName("ldcp").create(PccAlgorithms.byName("ldcp").defaults()));
    }

    @Test
    void defaultsFollowTheSpecsAndMellanox() {
        final PccParameterValues ldcp = new LdcpProvider().defaults();
        assertEquals(1.0, ldcp.value("alpha"));
        assertEquals(0.5, ldcp.value("beta"));
        assertEquals(0.125, ldcp.value("gamma"));
        assertEquals(0.5, ldcp.value("eta")); // the LDCP draft §2.2 "We choose eta = 1/2"
        assertEquals(0.0, ldcp.value("iw_bytes")); // = BDP
        final PccParameterValues dctcp = new DctcpProvider().defaults();
        assertEquals(1.0 / 16, dctcp.value("g")); // the DCTCP draft §4
        assertEquals(1.0, dctcp.value("initial_alpha")); // the DCTCP draft §3.3
        final PccParameterValues dcqcn = new DcqcnProvider().defaults();
        assertEquals(300_000.0, dcqcn.value("rpg_time_reset_ns")); // RPG_TIME_RESET 300 us
        assertEquals(32_767.0, dcqcn.value("rpg_byte_reset_bytes"));
        assertEquals(1.0, dcqcn.value("rpg_threshold"));
        assertEquals(5.0, dcqcn.value("rpg_ai_rate_mbps"));
        assertEquals(50.0, dcqcn.value("rpg_hai_rate_mbps"));
        assertEquals(11.0, dcqcn.value("rpg_gd"));
        assertEquals(50.0, dcqcn.value("rpg_min_dec_fac"));
        assertEquals(1.0, dcqcn.value("rpg_min_rate_mbps"));
        assertEquals(1_000.0, dcqcn.value("alpha_update_period_ns")); // DCE_TCP_RTT 1 us
        assertEquals(4_000.0, dcqcn.value("rate_reduce_monitor_period_ns"));
        assertEquals(320, dcqcn.raw("g")); // (1024 - 1019) / 1024 x 65,536
        assertEquals(65_472, dcqcn.raw("initial_alpha")); // 1023/1024 x 65,536
        assertEquals(0.0, dcqcn.value("clamp_tgt_rate"));
        assertEquals(1.0, dcqcn.value("clamp_tgt_rate_after_time_inc"));
    }

    @Test
    void everyProviderHasDenseDocumentedParameters() {
        final List<PccAlgorithmProvider> providers = List.of(new LdcpProvider(), new LdcpPccProvider(),
            new DctcpProvider(), new DcqcnProvider());
        for (final PccAlgorithmProvider p : providers) {
            final List<PccParameter> params = p.parameters();
            for (int i = 0; i < params.size(); i++) {
                assertEquals(i, params.get(i).id(), p.name());
                final String d = params.get(i).description();
                // each names its source: a document's section, an RFC, or the Mellanox knob
                assertTrue(d.matches(".*(draft|paper|article|DCQCN\"|RFC) .*") || d.matches(".*\\([A-Z_]+\\).*"),
                    p.name() + "." + params.get(i).name());
            }
            assertTrue(p.description().matches(".*(draft|paper|article|DCQCN\"|RFC) .*"), p.name());
            assertTrue(p.create(p.defaults()).contextWords() <= 12, p.name());
        }
    }

    @Test
    void outOfRangeValuesAreRejectedWithTheParameterName() {
        final PccParameterValues ldcp = new LdcpProvider().defaults();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ldcp.set("alpha", 1.5));
        assertTrue(e.getMessage().contains("'alpha'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ldcp.set("beta", 0.0));
        assertThrows(IllegalArgumentException.class, () -> ldcp.set("gamma", 1.0));
        assertThrows(IllegalArgumentException.class, () -> ldcp.set("iw_bytes", -1));
        assertThrows(IllegalArgumentException.class, () -> ldcp.set("iw_bytes", 1.5)); // integer bytes
        final PccParameterValues dcqcn = new DcqcnProvider().defaults();
        e = assertThrows(IllegalArgumentException.class, () -> dcqcn.set("rpg_gd", 16));
        assertTrue(e.getMessage().contains("'rpg_gd'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> dcqcn.set("rpg_min_dec_fac", 101));
        assertThrows(IllegalArgumentException.class, () -> dcqcn.set("clamp_tgt_rate", 2));
        assertThrows(IllegalArgumentException.class, () -> dcqcn.set("g", 0));
        assertThrows(IllegalArgumentException.class, () -> dcqcn.set("no_such_knob", 1));
        final PccParameterValues dctcp = new DctcpProvider().defaults();
        assertThrows(IllegalArgumentException.class, () -> dctcp.set("min_window_packets", 0));
        assertThrows(IllegalArgumentException.class, () -> new LdcpPccProvider().defaults().set("probe_timeout_ns", -5));
    }

    @Test
    void inconsistentOrForeignValuesAreRejectedAtCreate() {
        final PccParameterValues dctcp = new DctcpProvider().defaults()
            .set("init_window_bytes", 100_000).set("max_window_bytes", 50_000);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new DctcpProvider().create(dctcp));
        assertTrue(e.getMessage().contains("max_window_bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new DcqcnProvider().create(new LdcpProvider().defaults()));
    }
}
