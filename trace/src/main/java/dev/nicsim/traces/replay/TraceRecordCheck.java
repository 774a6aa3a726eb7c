package dev.nicsim.traces.replay;

/**
 * The 32-bit check every trace record of format version 3 and later ends with, so a reader tells a
 * record that was written from one that was cut, zeroed or overwritten (a crash, a truncated copy):
 * a multiply-xorshift mix of the record's fields (its binary form, field by field), seeded per
 * record kind so a record of zeros never passes. Not cryptographic; it detects accidents, not
 * forgeries.
 *
 * <p>Allocation: none. Thread-safety: stateless.
 */
final class TraceRecordCheck {
    /** Seed of {@link TraceEvent}. */
    static final long EVENT = 0x6576656E74L;
    /** Seed of {@link TraceResult}. */
    static final long RESULT = 0x726573756C74L;
    /** Seed of {@link TraceFlowStart}. */
    static final long FLOW_START = 0x7374617274L;
    /** Seed of {@link TraceFlowEnd}. */
    static final long FLOW_END = 0x656E64L;
    /** Seed of {@link TraceEnd}. */
    static final long TRACE_END = 0x747261696C6572L;
    /** Seed of {@link TraceHostCall}. */
    static final long HOST_CALL = 0x686F737463616C6CL;

    private TraceRecordCheck() {
    }

    /**
     * Mixes one field into the running value.
     *
     * @param h running value (start with the kind's seed)
     * @param v the field, sign- or zero-extended to 64 bits as written
     * @return the new running value
     */
    static long mix(final long h, final long v) {
        long x = (h ^ v) * 0x9E37_79B9_7F4A_7C15L;
        x ^= x >>> 29;
        return x * 0xBF58_476D_1CE4_E5B9L;
    }

    /**
     * @param h the running value after the last field
     * @return the 32-bit check written after the record's fields
     */
    static int finish(final long h) {
        return (int) (h ^ (h >>> 32));
    }

    /**
     * Compares a record's stored check with the one recomputed from its fields.
     *
     * @param stored   the check read from the trace
     * @param computed the check of the fields read
     * @param kind     record kind for the message ({@code event}, {@code result}, ...)
     * @throws Corrupt if they differ
     */
    static void verify(final int stored, final int computed, final String kind) {
        if (stored != computed) {
            throw new Corrupt(kind + " record check 0x" + Integer.toHexString(stored) + " does not match its fields (0x"
                + Integer.toHexString(computed) + ")");
        }
    }

    /** A record whose check does not match: the trace was cut, zeroed or overwritten there. */
    static final class Corrupt extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Corrupt(final String message) {
            super(message, null, false, false);
        }
    }
}
