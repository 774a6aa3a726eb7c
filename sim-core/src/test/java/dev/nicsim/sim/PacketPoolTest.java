package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PacketPoolTest {
    @Test
    void recyclesClearedPacketsAndRefusesASecondRelease() {
        final PacketPool pool = new PacketPool();
        final Packet a = pool.acquire();
        a.psn = 42;
        a.pfcClassEnable = 1 << 3;
        a.setPfcQuanta(3, 0xFFFF);
        pool.release(a);
        assertEquals(0, pool.outstanding());
        // a second release of the same packet would hand it to two owners later
        assertThrows(IllegalStateException.class, () -> pool.release(a));
        final Packet b = pool.acquire();
        assertSame(a, b);                 // recycled, not allocated: the pool allocated 1 packet in all
        assertEquals(1, pool.allocated());
        assertEquals(0, b.psn);           // cleared
        assertEquals(0, b.pfcQuanta(3));  // PFC quanta cleared too
        pool.release(b);                  // released once after its new acquire: fine
        assertEquals(0, pool.outstanding());
    }

    @Test
    void pfcQuantaKeepEightIndependentSixteenBitValues() {
        final Packet p = new Packet();
        for (int prio = 0; prio < 8; prio++) {
            p.setPfcQuanta(prio, 1000 * prio + 7);
        }
        p.setPfcQuanta(7, 0xFFFF);   // the top bits of the word must not leak into priority 6
        p.setPfcQuanta(3, 0);        // overwriting one leaves its neighbours
        for (int prio = 0; prio < 8; prio++) {
            final int expected = prio == 7 ? 0xFFFF : prio == 3 ? 0 : 1000 * prio + 7;
            assertEquals(expected, p.pfcQuanta(prio), "priority " + prio);
        }
        final Packet copy = new Packet();
        copy.copyFrom(p);
        assertEquals(0xFFFF, copy.pfcQuanta(7));
        assertEquals(6007, copy.pfcQuanta(6));
        final IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> p.setPfcQuanta(2, 65536));
        assertEquals("PFC priority must be in 0..7 and quanta in 0..65535, got 2 and 65536", big.getMessage());
        assertThrows(IllegalArgumentException.class, () -> p.setPfcQuanta(8, 1));
        assertThrows(IllegalArgumentException.class, () -> p.pfcQuanta(-1));
        assertThrows(IllegalArgumentException.class, () -> p.pfcQuanta(8));
    }

    @Test
    void aPoolWithoutRcmHandsOutPacketsWithoutRoomForFlowIds() {
        final PacketPool plain = new PacketPool(false);
        final PacketPool rcm = new PacketPool();
        assertNull(plain.acquire().rcmFlowIds);
        assertNotNull(rcm.acquire().rcmFlowIds);
        assertEquals(Packet.RCM_MAX_FLOW_IDS, rcm.acquire().rcmFlowIds.length);
        // a notification cannot be copied into a packet that has no room for its flow IDs
        final Packet cn = rcm.acquire();
        cn.rcmFlowCount = 1;
        cn.rcmFlowIds[0] = 42;
        final Packet target = plain.acquire();
        assertThrows(IllegalStateException.class, () -> target.copyFrom(cn));
    }
}
