package dev.nicsim.riscv.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link RandomProgramGenerator} that the differential test relies on and that need
 * no cross tools: determinism per seed, only forward control transfers (so every program ends),
 * the reserved base registers never overwritten, and no RV64-only or A-extension instruction in a
 * program for a target without them.
 */
class RandomProgramGeneratorTest {

    private static final Pattern LABEL_REF = Pattern.compile("\\.Lt(\\d+)$");
    private static final Set<String> NO_DEST = Set.of(
            "sb", "sh", "sw", "sd", "beq", "bne", "blt", "bge", "bltu", "bgeu", "bnez");
    private static final List<String> RV64_ONLY = List.of(
            "ld", "sd", "lwu", "addw", "subw", "sllw", "srlw", "sraw", "addiw", "slliw", "srliw", "sraiw",
            "mulw", "divw", "divuw", "remw", "remuw");

    @Test
    void sameSeedSameTextOtherSeedOtherText() {
        String a = RandomProgramGenerator.generate(42, 64, true, 500);
        assertEquals(a, RandomProgramGenerator.generate(42, 64, true, 500));
        assertNotEquals(a, RandomProgramGenerator.generate(43, 64, true, 500));
    }

    @Test
    void everyControlTransferGoesForward() {
        for (long seed = 0; seed < 20; seed++) {
            String text = RandomProgramGenerator.generate(seed, seed % 2 == 0 ? 32 : 64, seed % 3 == 0, 400);
            Set<Integer> defined = new HashSet<>();
            int references = 0;
            for (String line : text.split("\n")) {
                if (line.startsWith(".Lloop") || line.strip().startsWith("bnez x9, .Lloop")) {
                    continue;   // the counted loops are the one backward branch, checked below
                }
                if (line.startsWith(".Lt")) {
                    defined.add(Integer.parseInt(line.substring(3, line.length() - 1)));
                    continue;
                }
                Matcher m = LABEL_REF.matcher(line.strip());
                if (m.find()) {
                    int label = Integer.parseInt(m.group(1));
                    assertFalse(defined.contains(label), "seed " + seed + ": backward reference in '" + line + "'");
                    references++;
                }
            }
            assertTrue(references > 0, "seed " + seed + ": no branch or jump generated");
        }
    }

    @Test
    void loopsCountDownX9AndContainNoOtherControlTransfer() {
        int loops = 0;
        for (long seed = 0; seed < 20; seed++) {
            String[] lines = RandomProgramGenerator.generate(seed, 64, true, 400).split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (!lines[i].startsWith(".Lloop")) {
                    continue;
                }
                loops++;
                assertTrue(lines[i - 1].matches("    li x9, [2-5]"), "seed " + seed + ": loop without a 2..5 count");
                int j = i + 1;
                while (!lines[j].startsWith("    addi x9, x9, -1")) {
                    String op = lines[j].strip().split(" ")[0];
                    assertFalse(op.startsWith("b") || op.startsWith("j") || op.startsWith(".L"),
                            "seed " + seed + ": control transfer or label inside a loop: '" + lines[j] + "'");
                    assertFalse(!NO_DEST.contains(op) && lines[j].matches("    \\S+ x9,.*"),
                            "seed " + seed + ": x9 written in a loop: '" + lines[j] + "'");
                    j++;
                }
                assertEquals("    bnez x9, " + lines[i].substring(0, lines[i].length() - 1), lines[j + 1]);
            }
        }
        assertTrue(loops > 0, "no loop generated in 20 programs");
    }

    @Test
    void reservedRegistersOnlyWrittenBySetUp() {
        for (long seed = 0; seed < 20; seed++) {
            String text = RandomProgramGenerator.generate(seed, 64, true, 400);
            String body = text.substring(text.indexOf("    li x31"), text.indexOf("    sd x1, "));
            for (String line : body.split("\n")) {
                String[] f = line.strip().split("[ ,]+");
                if (f.length < 2 || f[0].startsWith(".Lt") || NO_DEST.contains(f[0])) {
                    continue;
                }
                if (f[1].equals("x9")) {
                    assertTrue(f[0].equals("lla") || (f[0].equals("addi") && (f[2].equals("x8") || f[3].equals("-1")))
                            || (f[0].equals("li") && line.matches("    li x9, [2-5]")),
                            "seed " + seed + ": x9 written by '" + line + "'");
                }
                assertNotEquals("x8", f[1], "seed " + seed + ": x8 written by '" + line + "'");
            }
        }
    }

    @Test
    void rv32WithoutAtomicsUsesOnlyRv32im() {
        for (long seed = 0; seed < 20; seed++) {
            String text = RandomProgramGenerator.generate(seed, 32, false, 400);
            for (String line : text.split("\n")) {
                String op = line.strip().split("[ ,]+")[0];
                assertFalse(RV64_ONLY.contains(op), "seed " + seed + ": RV64 instruction '" + line + "'");
                assertFalse(op.startsWith("amo") || op.startsWith("lr.") || op.startsWith("sc."),
                        "seed " + seed + ": A instruction '" + line + "'");
            }
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> RandomProgramGenerator.generate(1, 128, false, 10));
        assertThrows(IllegalArgumentException.class, () -> RandomProgramGenerator.generate(1, 32, false, 0));
    }
}
