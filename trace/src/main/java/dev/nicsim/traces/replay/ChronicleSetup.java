package dev.nicsim.traces.replay;

/**
 * Sets the system properties Chronicle reads in its static initialisers, once, before any
 * Chronicle class is initialised (every class of this package that touches Chronicle calls
 * {@link #init()} in its own static initialiser, and the command line calls it before it runs a
 * command):
 * <ul>
 *   <li>{@code chronicle.analytics.disable=true} (always, whatever was given: nicsim never reaches
 *       the network; the analytics artifact is also excluded from the build, so Chronicle's
 *       analytics facade is the muted one);</li>
 *   <li>{@code chronicle.announcer.disable=true} (no release banner), {@code chronicle.disk.monitor.disable=true}
 *       (no disk-space polling thread) and slf4j-simple's level for {@code net.openhft} = warn,
 *       unless the user set them;</li>
 *   <li>{@code project.build.directory} = {@value #NO_BUILD_DIRECTORY} under {@code java.io.tmpdir}
 *       (a directory that does not exist), unless the user set it. Chronicle Core's {@code OS} class
 *       initialiser otherwise looks for a {@code target} or {@code build} directory above the working
 *       directory and, finding none, creates {@code ${java.io.tmpdir}/target}; given the property, it
 *       creates {@code <property>/tmp} with a single {@code mkdir}, which fails harmlessly when the
 *       property's directory is missing. Either way a write outside the command's named outputs
 *       (NothingBesideTheOutputsTest); nicsim's traces always name their own directory, so Chronicle's
 *       {@code OS.TMP} and {@code OS.getTarget()} are never written to.</li>
 *   <li>when the JVM was started without {@code --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED}
 *       (or without the compiler module), Chronicle cannot compile its generated method
 *       writers/readers: {@code disableProxyCodegen} and {@code disableReaderProxyCodegen} make it
 *       use its reflective proxies at once (same trace bytes, slower, allocating per call) instead
 *       of printing a stack trace first, and its fallback warning is silenced.</li>
 * </ul>
 *
 * <p>Thread-safety: idempotent; safe from any thread (synchronised).
 */
public final class ChronicleSetup {
    private static boolean done;
    /** Where Chronicle is told the build directory is: two levels that do not exist, so that nothing is created. */
    static final String NO_BUILD_DIRECTORY = "nicsim-no-chronicle-build-directory/none";

    private ChronicleSetup() {
    }

    /** Sets the properties (first call only); a call after Chronicle's classes are initialised changes nothing. */
    public static synchronized void init() {
        if (done) {
            return;
        }
        done = true;
        System.setProperty("chronicle.analytics.disable", "true");
        setIfAbsent("chronicle.announcer.disable", "true");
        setIfAbsent("chronicle.disk.monitor.disable", "true");
        setIfAbsent("org.slf4j.simpleLogger.log.net.openhft", "warn");
        setIfAbsent("project.build.directory", System.getProperty("java.io.tmpdir") + "/" + NO_BUILD_DIRECTORY);
        if (!codegenAvailable()) {
            setIfAbsent("disableProxyCodegen", "true");
            setIfAbsent("disableReaderProxyCodegen", "true");
            setIfAbsent("org.slf4j.simpleLogger.log.net.openhft.chronicle.wire", "error");
        }
    }

    /**
     * Whether Chronicle Wire can compile generated code in this JVM: the compiler module is present
     * and exports {@code com.sun.tools.javac.file} to the class path.
     *
     * @return true if generated method writers and readers can be used
     */
    static boolean codegenAvailable() {
        final Module unnamed = ChronicleSetup.class.getModule();
        return ModuleLayer.boot().findModule("jdk.compiler")
            .map(m -> m.isExported("com.sun.tools.javac.file", unnamed))
            .orElse(false);
    }

    private static void setIfAbsent(final String key, final String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
