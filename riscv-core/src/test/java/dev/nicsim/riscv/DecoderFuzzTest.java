package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random instruction words (seeded): every 32-bit word and 16-bit parcel either executes
 * (retires, or raises the exception its own semantics call for: access fault, misaligned AMO,
 * ecall, ebreak) or raises illegal-instruction with the word in mtval; no Java exception escapes,
 * and the disassembler agrees with the decoder on what is illegal.
 */
class DecoderFuzzTest {
    static final long CODE = 0x8000_0000L;

    @Test
    void randomWordsExecuteOrRaiseIllegalInstruction() {
        for (final int xlen : new int[] {32, 64}) {
            final SplittableRandom rnd = new SplittableRandom(42 + xlen);
            final Memory m = new Memory();
            m.addRegion("code", CODE, 8192, 0);
            m.addRegion("data", 0, 1 << 16, 0);
            int illegal = 0;
            int retired = 0;
            for (int i = 0; i < 40_000; i++) {
                final boolean compressed = (i & 1) == 1;
                int w = rnd.nextInt();
                if (compressed) {
                    w &= 0xffff;
                    if ((w & 3) == 3) {
                        w &= ~1;
                    }
                } else {
                    w |= 3;
                }
                m.store(CODE, 4, compressed ? w | 0x0013_0000 : w); // a 16-bit parcel followed by a nop half
                final Hart h = new Hart(m, xlen, CycleModel.E31, 0);
                h.setPc(CODE);
                h.setStopAfterTrap(true);
                h.run(1);
                final long d = Isa.decode(w, xlen);
                final boolean decodedIllegal = (d & 0xff) == Isa.ILLEGAL;
                final String dis = Isa.disassemble(w, xlen, CODE);
                if (decodedIllegal) {
                    illegal++;
                    assertEquals(Hart.CAUSE_ILLEGAL, h.mcause(), Integer.toHexString(w));
                    assertEquals(compressed ? w : w & 0xffffffffL, h.mtval() & 0xffffffffL);
                    assertEquals("unknown", dis, Integer.toHexString(w));
                } else {
                    assertNotEquals("unknown", dis, Integer.toHexString(w));
                    final int op = (int) (d & 0xff);
                    final boolean csr = Isa.timingOf(op) == TimingClass.CSR;
                    if (h.instret() == 1) {
                        retired++;
                    } else if (!csr) {
                        assertNotEquals(Hart.CAUSE_ILLEGAL, h.mcause(), Integer.toHexString(w) + " " + dis);
                    }
                }
                assertTrue(h.instret() == 1 || h.mepc() == CODE);
            }
            assertTrue(illegal > 1000 && retired > 1000, "illegal " + illegal + ", retired " + retired);
        }
    }
}
