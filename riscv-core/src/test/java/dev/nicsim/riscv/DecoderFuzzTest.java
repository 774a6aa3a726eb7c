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
 * the decoder calls a word illegal exactly when {@link ManualOpcodeMap} (the manual's opcode map,
 * written apart from {@link Isa}'s table) has no instruction for it, and the disassembler agrees. Each word issues once, and
 * exactly its own timing class counts the issue and its occupancy stall (every op's case in the
 * interpreter counts for the right class; illegal words count as system).
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
            final CycleModel model = CycleModelTest.distinctOccupancies();
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
                final Hart h = new Hart(m, xlen, model, 0);
                h.setPc(CODE);
                h.setStopAfterTrap(true);
                h.run(1);
                final long d = Isa.decode(w, xlen);
                final boolean decodedIllegal = (d & 0xff) == Isa.ILLEGAL;
                final String dis = Isa.disassemble(w, xlen, CODE);
                // the manual's opcode map (an oracle written apart from Isa's table) decides what is illegal
                final boolean manualIllegal = compressed ? ManualOpcodeMap.expand16(w, xlen) == 0
                    : ManualOpcodeMap.classify32(w, xlen) == null;
                assertEquals(manualIllegal, decodedIllegal, "RV" + xlen + " " + Integer.toHexString(w) + " " + dis);
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
                assertChargedToItsOwnClass(h, d, w + " " + dis);
            }
            // The mix is what the manual makes it: of the 20,000 words, P(legal) = sum over the map's
            // instructions of 2^-(fixed bits - 2) (bits 1:0 are forced to 11); of the 20,000 parcels,
            // the share of the 65,536 values, after the same 11 -> 10 folding, that the manual expands.
            // Legal words must be within 5 standard deviations of n p (a degenerate generator, or a
            // table whose rows the fuzzer no longer reaches, fails here).
            double p32 = 0;
            for (final ManualOpcodeMap.Entry e : ManualOpcodeMap.entries()) {
                if (e.in(xlen)) {
                    p32 += Math.pow(2, 2 - Integer.bitCount(e.mask(xlen)));
                }
            }
            int legalParcels = 0;
            for (int v = 0; v < 0x10000; v++) {
                legalParcels += ManualOpcodeMap.expand16((v & 3) == 3 ? v & ~1 : v, xlen) != 0 ? 1 : 0;
            }
            final double p16 = legalParcels / 65536.0;
            final double mean = 20_000 * (p32 + p16);
            final double sd = Math.sqrt(20_000 * (p32 * (1 - p32) + p16 * (1 - p16)));
            final int legal = 40_000 - illegal;
            assertTrue(Math.abs(legal - mean) < 5 * sd, "RV" + xlen + ": " + legal + " legal words, the manual's map expects "
                + Math.round(mean) + " +- " + Math.round(5 * sd) + " (retired " + retired + ")");
        }
    }

    /**
     * Every row of the decoder table, for each XLEN it exists in, with 64 random fillings of its
     * operand bits: the one issue is counted for the row's own timing class (random words alone
     * reach rare rows such as RV32 mulhu about once in 30,000).
     */
    @Test
    void everyDecoderRowIsChargedToItsOwnClass() {
        final CycleModel model = CycleModelTest.distinctOccupancies();
        final SplittableRandom rnd = new SplittableRandom(7);
        int executed = 0;
        for (final int xlen : new int[] {32, 64}) {
            final Memory m = new Memory();
            m.addRegion("code", CODE, 8192, 0);
            m.addRegion("data", 0, 1 << 16, 0);
            for (final Isa.Insn row : Isa.rows()) {
                if ((xlen == 32 ? row.op32() : row.op64()) < 0) {
                    continue;
                }
                for (int i = 0; i < 64; i++) {
                    final int w = row.match() | (rnd.nextInt() & ~row.mask());
                    m.store(CODE, 4, w);
                    final Hart h = new Hart(m, xlen, model, 0);
                    h.setPc(CODE);
                    h.setStopAfterTrap(true);
                    h.run(1);
                    final long d = Isa.decode(w, xlen);
                    assertChargedToItsOwnClass(h, d, row.name() + " " + Integer.toHexString(w));
                    executed++;
                }
            }
        }
        assertTrue(executed > 150 * 64, "executed " + executed);
    }

    /** One instruction issued: its class counts 1 issue and occupancy - 1 stall cycles, every other class 0. */
    private static void assertChargedToItsOwnClass(final Hart h, final long decoded, final String what) {
        final TimingClass own = Isa.timingOf((int) (decoded & 0xff));
        for (final TimingClass c : TimingClass.values()) {
            final long issued = c == own ? 1 : 0;
            assertEquals(issued, h.issues(c), what + " " + c);
            // distinctOccupancies(): occupancy ordinal + 2, latency 1 (no operand waits)
            assertEquals(issued * (c.ordinal() + 1), h.stallCycles(c), what + " " + c);
        }
    }
}
