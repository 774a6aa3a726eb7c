package dev.nicsim.sw;

import dev.nicsim.sim.RngStreams;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** {@link EcmpRouter}'s table: equal groups share one array; members and selection are unchanged. */
class EcmpRouteTableTest {

    @Test
    void equalGroupsShareOneArrayAndKeepTheirOrder() {
        // a leaf of a 4-host rack with two up-links (ports 4 and 5): hosts 0-3 are local (one port
        // each), hosts 4-15 are remote and all take the up-link group {4, 5}
        final EcmpRouter r = new EcmpRouter(0x1234_5678_9ABC_DEF0L);
        for (int h = 0; h < 16; h++) {
            r.setRoute(h, h < 4 ? new int[] {h} : new int[] {4, 5});
        }
        // 4 local groups + 1 up-link group
        assertEquals(5, r.distinctGroups());
        for (int h = 5; h < 16; h++) {
            assertSame(r.group(4), r.group(h), "host " + h);
        }
        assertArrayEquals(new int[] {4, 5}, r.group(9));
        assertArrayEquals(new int[] {2}, r.group(2));
        assertNotSame(r.group(1), r.group(2));
        // a group with the same ports in another order is another group (the order picks members)
        r.setRoute(16, new int[] {5, 4});
        assertEquals(6, r.distinctGroups());
        assertArrayEquals(new int[] {5, 4}, r.group(16));
        assertNull(r.group(17));
        assertNull(r.group(-1));
    }

    @Test
    void aKeySelectsTheMemberTheHashNames() {
        final long salt = 0x0F0F_0F0F_1234_5678L;
        final EcmpRouter r = new EcmpRouter(salt);
        r.setRoute(0, new int[] {7, 8, 9});
        r.setRoute(1, new int[] {7, 8, 9});
        for (int key = -1000; key < 1000; key++) {
            // member = mix(key ^ salt) mod 3, as an unsigned 64-bit number (class javadoc)
            final int expected = new int[] {7, 8, 9}[(int) Long.remainderUnsigned(
                RngStreams.mix((key & 0xFFFFFFFFL) ^ salt), 3)];
            assertEquals(expected, r.select(r.group(0), key), "key " + key);
            assertEquals(expected, r.select(r.group(1), key), "key " + key);
        }
    }
}
