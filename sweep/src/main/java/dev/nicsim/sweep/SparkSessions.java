package dev.nicsim.sweep;

import org.apache.spark.sql.SparkSession;

import java.net.URI;

/**
 * Builds the Spark session of a sweep: the given master ({@code local[*]}, {@code local[N]},
 * {@code spark://host:port}, or whatever {@code spark-submit} set in {@code spark.master}), no web
 * UI, no console progress (the sweep has its own bar), executors started with nicsim's JVM options
 * ({@link #NICSIM_JVM_OPTIONS}; Spark adds its own Java 17 module options to them). For a local
 * master or a master on the loopback address the driver binds to 127.0.0.1, so nothing listens
 * beyond this machine.
 *
 * <p>Thread-safety: stateless.
 */
public final class SparkSessions {
    /** The master when none is given and {@code spark.master} is not set. */
    public static final String DEFAULT_MASTER = "local[*]";
    /** nicsim's JVM options (Agrona, Chronicle), as in the {@code nicsim} launcher and the parent pom. */
    public static final String NICSIM_JVM_OPTIONS = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"
        + " --add-opens java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED"
        + " --add-exports java.base/sun.nio.ch=ALL-UNNAMED --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED"
        + " --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED"
        + " --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED"
        + " --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED"
        + " --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED -Dchronicle.analytics.disable=true -Dagrona.disable.bounds.checks=false";

    private SparkSessions() {
    }

    /**
     * The master to use.
     *
     * @param given {@code --master}, or null
     * @return the given master, else {@code spark.master} (set by {@code spark-submit}), else {@link #DEFAULT_MASTER}
     */
    public static String master(final String given) {
        return given != null ? given : System.getProperty("spark.master", DEFAULT_MASTER);
    }

    /**
     * Creates (or returns the running) session.
     *
     * @param master  the master URL
     * @param appName the application's name in Spark
     * @return the session; the caller stops it
     */
    public static SparkSession create(final String master, final String appName) {
        final SparkSession.Builder b = SparkSession.builder().master(master).appName(appName)
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.executor.extraJavaOptions", NICSIM_JVM_OPTIONS)
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.debug.maxToStringFields", "1000");
        if (loopback(master)) {
            b.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1");
        }
        return b.getOrCreate();
    }

    private static boolean loopback(final String master) {
        if (master.startsWith("local")) {
            return true;
        }
        if (master.startsWith("spark://")) {
            try {
                final String host = URI.create(master).getHost();
                return "127.0.0.1".equals(host) || "localhost".equals(host);
            } catch (final IllegalArgumentException e) {
                return false;
            }
        }
        return false;
    }
}
