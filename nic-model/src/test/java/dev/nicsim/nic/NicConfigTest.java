package dev.nicsim.nic;

import dev.nicsim.sim.Packet;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults (mlx5 and spec values) and validation of {@link NicConfig}. */
class NicConfigTest {

    @Test
    void defaultsFollowTheSpecsAndMlx5() {
        final NicConfig c = new NicConfig().validate();
        assertEquals(1024, c.mtuBytes);
        assertEquals(1, c.ackEveryPackets);            // per-packet ACK, the LDCP draft §3.1
        assertEquals(4_000, c.cnpIntervalNs);          // mlx5 min_time_between_cnps = 4 us
        assertTrue(c.npEnabled);
        assertEquals(1_000_000, c.rtoNs);
        assertEquals(8, c.txBurstPackets);
        assertEquals(26, c.dataDscp);
        assertEquals(3, c.dataPriority);
        assertEquals(48, c.cnpDscp);                   // mlx5 CNP_DSCP
        assertEquals(6, c.cnpPriority);                // mlx5 CNP_802P_PRIO
        assertEquals(Packet.ECN_ECT0, c.ecnCodepoint); // the RoCE ECN/DCQCN article §5 step 1: ECT(0) = '10'
        assertEquals(Packet.ECN_ECT1, c.cnpEcnCodepoint); // the RoCE ECN/DCQCN article §5 steps 6-7: CNP ECN '01'
        assertEquals(c.toString(), c.copy().toString());
    }

    @Test
    void validationNamesTheBadField() {
        expectBad("mtuBytes", c -> c.mtuBytes = 0);
        expectBad("ackEveryPackets", c -> c.ackEveryPackets = 0);
        expectBad("delayedAckTimeoutNs", c -> c.delayedAckTimeoutNs = -1);
        expectBad("cnpIntervalNs", c -> c.cnpIntervalNs = -1);
        expectBad("rtoNs", c -> c.rtoNs = 0);
        expectBad("txBurstPackets", c -> c.txBurstPackets = 0);
        expectBad("dataDscp", c -> c.dataDscp = 64);
        expectBad("dataPriority", c -> c.dataPriority = -1);
        expectBad("ackDscp", c -> c.ackDscp = 64);
        expectBad("ackPriority", c -> c.ackPriority = 8);
        expectBad("cnpDscp", c -> c.cnpDscp = -1);
        expectBad("cnpPriority", c -> c.cnpPriority = 8);
        expectBad("ecnCodepoint", c -> c.ecnCodepoint = Packet.ECN_CE);
        expectBad("ackEcnCodepoint", c -> c.ackEcnCodepoint = Packet.ECN_CE);
        expectBad("cnpEcnCodepoint", c -> c.cnpEcnCodepoint = 4);
    }

    private static void expectBad(final String field, final Consumer<NicConfig> change) {
        final NicConfig c = new NicConfig();
        change.accept(c);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, c::validate);
        assertTrue(e.getMessage().startsWith("NicConfig." + field + " must be "), e.getMessage());
    }
}
