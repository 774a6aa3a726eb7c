package dev.nicsim.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PacketPoolTest {
    @Test
    void recyclesClearedPacketsAndRefusesASecondRelease() {
        final PacketPool pool = new PacketPool();
        final Packet a = pool.acquire();
        a.psn = 42;
        a.pfcClassEnable = 1 << 3;
        a.pfcQuanta[3] = 0xFFFF;
        pool.release(a);
        assertEquals(0, pool.outstanding());
        // a second release of the same packet would hand it to two owners later
        assertThrows(IllegalStateException.class, () -> pool.release(a));
        final Packet b = pool.acquire();
        assertSame(a, b);                 // recycled, not allocated: the pool allocated 1 packet in all
        assertEquals(1, pool.allocated());
        assertEquals(0, b.psn);           // cleared
        assertEquals(0, b.pfcQuanta[3]);  // PFC quanta cleared too
        pool.release(b);                  // released once after its new acquire: fine
        assertEquals(0, pool.outstanding());
    }
}
