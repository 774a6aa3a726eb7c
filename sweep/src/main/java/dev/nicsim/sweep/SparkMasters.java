package dev.nicsim.sweep;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a Spark master URL before the sweep starts Spark, so a bad or unreachable master is one
 * line and exit 2 instead of Spark's own failure (an internal error with a stack trace for an
 * unknown form; for an unreachable standalone master, three registration attempts of 20 s each,
 * logged with stack traces, after which the session is stopped under the sweep).
 *
 * <p>The forms are those Spark's {@code SparkContext.createTaskScheduler} accepts
 * ({@code org.apache.spark.SparkMasterRegex}, Spark 4.1.1) less its test-only
 * {@code local-cluster[...]}:
 * <ul>
 * <li>{@code local} (one thread), {@code local[N]}, {@code local[*]}, and with a task retry count
 *     {@code local[N,F]}, {@code local[*,F]}; N and F at least 1;</li>
 * <li>{@code spark://HOST:PORT}, or {@code spark://HOST1:PORT1,HOST2:PORT2,...} for standby masters
 *     (each part as Spark's {@code Utils.extractHostPortFromSparkUrl} reads it: a host and a port
 *     in 1..65535, nothing else);</li>
 * <li>{@code yarn} and {@code k8s://...}, only when given by {@code spark-submit} (system property
 *     {@code spark.master}): their cluster managers are not in the sweep jar, and
 *     {@code spark-submit} of a Spark distribution has checked the URL already.</li>
 * </ul>
 * A standalone master is probed with a TCP connection to each of its addresses
 * ({@link #PROBE_TIMEOUT_MS} each); one answering is enough.
 *
 * <p>Thread-safety: stateless.
 */
public final class SparkMasters {
    /** How long the TCP probe of one standalone master address may take, ms. */
    public static final int PROBE_TIMEOUT_MS = 5000;

    private static final Pattern LOCAL = Pattern.compile("local(?:\\[([0-9]+|\\*)(?:\\s*,\\s*([0-9]+))?\\])?");
    private static final String FORMS = "expected local, local[N], local[*], local[N,F] or spark://HOST:PORT[,HOST:PORT...]";

    private SparkMasters() {
    }

    /**
     * Checks the form of a master URL (nothing is contacted).
     *
     * @param master   the URL
     * @param fromSparkSubmit true when the URL is {@code spark.master} set by {@code spark-submit}
     *                 (then {@code yarn} and {@code k8s://} are let through), false for {@code --master}
     * @throws SweepException {@code --master URL: expected ...} naming the URL and the accepted forms
     */
    public static void checkForm(final String master, final boolean fromSparkSubmit) {
        final String what = (fromSparkSubmit ? "spark.master " : "--master ") + master;
        final Matcher m = LOCAL.matcher(master);
        if (m.matches()) {
            if (m.group(1) != null && !"*".equals(m.group(1)) && !positive(m.group(1))) {
                throw new SweepException(what + ": N (threads) must be a whole number of at least 1");
            }
            if (m.group(2) != null && !positive(m.group(2))) {
                throw new SweepException(what + ": F (task attempts) must be a whole number of at least 1");
            }
            return;
        }
        if (master.startsWith("spark://")) {
            addresses(master, what);
            return;
        }
        if (fromSparkSubmit && ("yarn".equals(master) || master.startsWith("k8s://"))) {
            return;
        }
        throw new SweepException(what + ": " + FORMS);
    }

    /**
     * The addresses of a standalone master URL, as Spark reads them
     * ({@code Utils.parseStandaloneMasterUrls}, then {@code extractHostPortFromSparkUrl} on each).
     *
     * @param master {@code spark://HOST:PORT[,HOST:PORT...]}
     * @return one address per master, unresolved
     * @throws SweepException naming the URL and the part that is not {@code HOST:PORT}
     */
    public static List<InetSocketAddress> standaloneAddresses(final String master) {
        return addresses(master, "--master " + master);
    }

    private static List<InetSocketAddress> addresses(final String master, final String what) {
        final List<InetSocketAddress> out = new ArrayList<>();
        for (final String part : master.substring("spark://".length()).split(",", -1)) {
            final URI u;
            try {
                u = new URI("spark://" + part);
            } catch (final URISyntaxException e) {
                throw new SweepException(what + ": '" + part + "' is not HOST:PORT; " + FORMS);
            }
            if (u.getHost() == null || u.getPort() <= 0 || u.getPort() > 65535 || u.getUserInfo() != null
                || (u.getRawPath() != null && !u.getRawPath().isEmpty()) || u.getRawQuery() != null || u.getRawFragment() != null) {
                throw new SweepException(what + ": '" + part + "' is not HOST:PORT (a host name or"
                    + " address and a port in 1..65535); " + FORMS);
            }
            out.add(InetSocketAddress.createUnresolved(u.getHost(), u.getPort()));
        }
        return out;
    }

    /**
     * For a standalone master, checks that one of its addresses accepts a TCP connection within
     * {@link #PROBE_TIMEOUT_MS} (the connection is closed at once); other masters are not probed.
     * A master that accepts the connection may still refuse the application: Spark then reports it.
     *
     * @param master a URL that passed {@link #checkForm}
     * @throws SweepException {@code --master URL: cannot connect to HOST:PORT (REASON) ...} when no
     *                        address answers
     */
    public static void probe(final String master) {
        if (!master.startsWith("spark://")) {
            return;
        }
        final List<String> failures = new ArrayList<>();
        for (final InetSocketAddress a : standaloneAddresses(master)) {
            final String where = a.getHostString() + ":" + a.getPort();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(a.getHostString(), a.getPort()), PROBE_TIMEOUT_MS);
                return;
            } catch (final UnknownHostException e) {
                failures.add(where + " (unknown host)");
            } catch (final SocketTimeoutException e) {
                failures.add(where + " (no answer within " + PROBE_TIMEOUT_MS / 1000 + " s)");
            } catch (final ConnectException e) {
                failures.add(where + " (connection refused)");
            } catch (final NoRouteToHostException e) {
                failures.add(where + " (no route to host)");
            } catch (final IOException | IllegalArgumentException | SecurityException e) {
                failures.add(where + " (" + e.getMessage() + ")");
            }
        }
        throw new SweepException("--master " + master + ": cannot connect to " + String.join(", ", failures)
            + "; is the master running? (./nicsim spark-cluster start starts one on this machine)");
    }

    private static boolean positive(final String digits) {
        try {
            return Integer.parseInt(digits) >= 1;
        } catch (final NumberFormatException e) {
            return false; // more digits than an int holds
        }
    }
}
