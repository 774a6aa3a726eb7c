package dev.nicsim.sw;

import dev.nicsim.sim.RngStreams;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link EcmpRouter}'s table: runs of hosts, equal groups share one array; members and selection are unchanged. */
class EcmpRouteTableTest {

    @Test
    void equalGroupsShareOneArrayAndKeepTheirOrder() {
        // a leaf of a 4-host rack with two up-links (ports 4 and 5): hosts 0-3 are local (one port
        // each), hosts 4-15 are remote and all take the up-link group {4, 5}
        final EcmpRouter r = new EcmpRouter(0x1234_5678_9ABC_DEF0L);
        for (int h = 0; h < 16; h++) {
            set(r, h, h < 4 ? new int[] {h} : new int[] {4, 5});
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
        set(r, 16, new int[] {5, 4});
        assertEquals(6, r.distinctGroups());
        assertArrayEquals(new int[] {5, 4}, r.group(16));
        assertNull(r.group(17));
        assertNull(r.group(-1));
        assertNull(r.group(Integer.MAX_VALUE));
        // runs: 0, 1, 2, 3 (one local host each), 4..15 (up-links), 16 ({5, 4}), 17.. (no route)
        assertEquals(7, r.runCount());
    }

    @Test
    void runsHoldWhatAPerHostTableWouldWhateverTheOrderOfTheCalls() {
        // oracle: a plain array per host, written by the same calls; ranges overlap, split and join runs
        final SplittableRandom rnd = new SplittableRandom(39);
        final int hosts = 200;
        final int[][] groups = {{0}, {1}, {2, 3}, {3, 2}, {4, 5, 6}};
        for (int round = 0; round < 50; round++) {
            final EcmpRouter r = new EcmpRouter(round);
            final int[][] oracle = new int[hosts + 10][];
            for (int call = 0; call < 40; call++) {
                final int first = rnd.nextInt(hosts);
                final int end = first + 1 + rnd.nextInt(call % 4 == 0 ? 2 : hosts - first);
                final int[] g = groups[rnd.nextInt(groups.length)];
                r.setRoutes(first, end, g.clone(), 7, "sw");
                for (int h = first; h < end; h++) {
                    oracle[h] = g;
                }
                for (int h = 0; h < oracle.length; h++) {
                    assertArrayEquals(oracle[h], r.group(h), "round " + round + " call " + call + " host " + h);
                }
                // adjacent runs differ: at most one run per change of group along the hosts, plus the first
                int changes = 1;
                for (int h = 1; h < oracle.length; h++) {
                    changes += Arrays.equals(oracle[h], oracle[h - 1]) ? 0 : 1;
                }
                assertEquals(changes, r.runCount(), "round " + round + " call " + call);
            }
        }
    }

    @Test
    void aBadRouteNamesTheSwitch() {
        final EcmpRouter r = new EcmpRouter(1);
        final IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
            () -> r.setRoutes(3, 5, new int[0], 4, "leaf0"));
        assertEquals("egressPorts for host 3 on leaf0 must be non-empty", empty.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.setRoutes(3, 5, new int[] {4}, 4, "leaf0"));
        assertThrows(IllegalArgumentException.class, () -> r.setRoutes(5, 5, new int[] {1}, 4, "leaf0"));
        assertThrows(IllegalArgumentException.class, () -> r.setRoutes(-1, 5, new int[] {1}, 4, "leaf0"));
        assertEquals(1, r.runCount());
    }

    private static void set(final EcmpRouter r, final int host, final int[] group) {
        r.setRoutes(host, host + 1, group, 16, "sw");
    }

    @Test
    void aKeySelectsTheMemberTheHashNames() {
        final long salt = 0x0F0F_0F0F_1234_5678L;
        final EcmpRouter r = new EcmpRouter(salt);
        set(r, 0, new int[] {7, 8, 9});
        set(r, 1, new int[] {7, 8, 9});
        for (int key = -1000; key < 1000; key++) {
            // member = mix(key ^ salt) mod 3, as an unsigned 64-bit number (class javadoc)
            final int expected = new int[] {7, 8, 9}[(int) Long.remainderUnsigned(
                RngStreams.mix((key & 0xFFFFFFFFL) ^ salt), 3)];
            assertEquals(expected, r.select(r.group(0), key), "key " + key);
            assertEquals(expected, r.select(r.group(1), key), "key " + key);
        }
    }
}
