package dev.nicsim.fabric.run;

/**
 * Finds an error of a given type in a chain of causes, for messages that name the error that
 * matters (the CSV parser's, a decoder's) under the wrappers the readers add.
 *
 * <p>Thread-safety: stateless.
 */
public final class Causes {
    private Causes() {
    }

    /**
     * @param e    an error, possibly wrapped; may be null
     * @param type the type sought
     * @param <T>  that type
     * @return {@code e} or the first of its causes that is a {@code type}, or null when none is
     */
    public static <T extends Throwable> T find(final Throwable e, final Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
