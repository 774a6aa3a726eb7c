package dev.nicsim.scenario;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Ns3Lines#parse}: non-blank lines with their 1-based numbers, split on any run of
 * whitespace (spaces, tabs), with LF or CRLF line ends; leading and trailing blanks ignored.
 */
class Ns3LinesTest {
    @Test
    void linesAndTokensByHand() {
        final Ns3Lines in = Ns3Lines.parse("t.txt", "3\r\n  1\t2   3 \n\n \t\r\n4 5\r\n6");
        final List<Ns3Lines.Line> lines = in.lines();
        assertEquals(4, lines.size());
        assertEquals(List.of(1, 2, 5, 6), lines.stream().map(Ns3Lines.Line::number).toList());
        assertEquals(List.of(List.of("3"), List.of("1", "2", "3"), List.of("4", "5"), List.of("6")),
            lines.stream().map(l -> Arrays.asList(l.tokens())).toList());
    }
}
