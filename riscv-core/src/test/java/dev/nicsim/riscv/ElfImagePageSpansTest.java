package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The pages the loadable segments need, worked out by hand for 4 KiB pages. */
class ElfImagePageSpansTest {

    private static ElfImage.Segment seg(final long address, final long memBytes) {
        return new ElfImage.Segment(address, memBytes, new byte[0], 4);
    }

    @Test
    void segmentsRoundOutToPagesAndMergeWhenTheyShareOrTouchOne() {
        final ElfImage image = new ElfImage("t", 32, 0x1000, List.of(
            seg(0x1010, 0x20),     // 0x1000..0x2000
            seg(0x1800, 0x900),    // 0x1000..0x3000: shares the page, merged
            seg(0x3000, 0x10),     // 0x3000..0x4000: touches, merged
            seg(0x8004, 0x1000)),  // 0x8000..0xA000: a gap before it
            SymbolTable.EMPTY);
        final List<long[]> spans = image.pageSpans();
        assertEquals(2, spans.size());
        assertArrayEquals(new long[] {0x1000, 0x4000}, spans.get(0));
        assertArrayEquals(new long[] {0x8000, 0xA000}, spans.get(1));
    }
}
