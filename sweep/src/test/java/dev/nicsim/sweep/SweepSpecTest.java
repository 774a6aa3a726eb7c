package dev.nicsim.sweep;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Points of a sweep file: the product of the axes and zip groups, first dimension slowest. */
class SweepSpecTest {
    /**
     * 2 sizes x a zip group of 3 (kmin, kmax together) = 6 points; point 4 = size index 4 / 3 = 1,
     * zip index 4 % 3 = 1: size 96000, kmin 20000, kmax 80000, after the fixed overrides.
     */
    @Test
    void zipGroupsVaryTogetherAndTheFirstAxisSlowest(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.sweepFile(tmp, "set: {workload.senders: 4}\n"
            + "axes: {workload.size_bytes: [32000, 96000]}\n"
            + "zip:\n  - {switch.wred.kmin_bytes: [10000, 20000, 40000], switch.wred.kmax_bytes: [40000, 80000, 160000]}\n"
            + "seeds: [3, 1]\n"));
        spec.validate();
        assertEquals(6, spec.pointCount());
        assertEquals(2, spec.dimensions().size());
        assertEquals("switch.wred.kmin_bytes+switch.wred.kmax_bytes", spec.dimensions().get(1).name());
        assertArrayEquals(new int[] {1, 1}, spec.indices(4));
        assertEquals(List.of("workload.senders=4", "workload.size_bytes=96000", "switch.wred.kmin_bytes=20000",
            "switch.wred.kmax_bytes=80000"), spec.overrides(4));
        assertEquals(Map.of("workload.size_bytes", "96000", "switch.wred.kmin_bytes", "20000", "switch.wred.kmax_bytes", "80000"),
            spec.axisValues(4));
        assertEquals(List.of("workload.size_bytes", "switch.wred.kmin_bytes", "switch.wred.kmax_bytes"), spec.axisKeys());
        assertEquals(List.of(3L, 1L), spec.seeds());
        assertEquals(List.of("workload.senders=4", "workload.size_bytes=32000", "switch.wred.kmin_bytes=10000",
            "switch.wred.kmax_bytes=40000"), spec.overrides(0));
        assertEquals(List.of("workload.senders=4", "workload.size_bytes=96000", "switch.wred.kmin_bytes=40000",
            "switch.wred.kmax_bytes=160000"), spec.overrides(5));
    }

    /** No axes: one point with the fixed overrides; a list value is passed as a YAML list. */
    @Test
    void noAxesIsOnePointAndListsStayLists(@TempDir final Path tmp) throws Exception {
        final SweepSpec spec = SweepSpec.load(Fixtures.sweepFile(tmp, "axes: {switch.wred.priorities: [[3, 4], [3]]}\nseeds: [1]\n"));
        spec.validate();
        assertEquals(2, spec.pointCount());
        assertEquals(List.of("switch.wred.priorities=[3, 4]"), spec.overrides(0));
        final SweepSpec one = SweepSpec.load(Fixtures.sweepFile(tmp, "seeds: [1]\n"));
        assertEquals(1, one.pointCount());
        assertEquals(List.of(), one.overrides(0));
    }
}
