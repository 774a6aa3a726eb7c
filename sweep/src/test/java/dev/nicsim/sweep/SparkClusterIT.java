package dev.nicsim.sweep;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster path: a real Spark standalone master and worker, child JVMs started from the
 * packaged sweep jar's directory ({@link SparkCluster}, as {@code nicsim spark-cluster start}
 * does) on 127.0.0.1, run the tiny 4 x 2 sweep through {@code spark://127.0.0.1:PORT}; its rows
 * equal those of the same sweep on embedded {@code local[*]} Spark, column by column except
 * {@code wall_s}. Runs after {@code package} (failsafe), since the worker's executors load the jar.
 */
class SparkClusterIT {
    @Test
    void standaloneClusterGivesTheSameRowsAsLocal(@TempDir final Path tmp) throws Exception {
        final Path jar = Path.of(System.getProperty("nicsim.sweepJar", "target/jars/nicsim-sweep.jar"));
        assertTrue(Files.isRegularFile(jar), "the sweep jar " + jar + " (run mvn package first)");
        final SweepSpec spec = SweepSpec.load(Fixtures.tinySweep(tmp));
        spec.validate();
        final List<Map<String, String>> local = run(spec, "local[*]", tmp.resolve("local"));
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        final SparkCluster cluster = new SparkCluster(jar.getParent(), tmp.resolve("cluster"));
        final List<Map<String, String>> remote;
        try {
            final String url = cluster.start(port, 1, 2);
            assertEquals("spark://127.0.0.1:" + port, url);
            remote = run(spec, url, tmp.resolve("remote"));
        } finally {
            cluster.stop();
        }
        assertEquals(8, local.size());
        assertEquals(8, remote.size());
        for (int i = 0; i < 8; i++) {
            local.get(i).remove("wall_s");
            remote.get(i).remove("wall_s");
            assertEquals("ok", remote.get(i).get("status"), remote.get(i).get("error"));
            assertEquals(local.get(i), remote.get(i), "row " + i);
        }
    }

    private static List<Map<String, String>> run(final SweepSpec spec, final String master, final Path out) throws Exception {
        final SparkSession spark = SparkSessions.create(master, "SparkClusterIT");
        try (PrintStream p = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            assertEquals(SweepRun.EXIT_OK, new SweepRun(spec, out, false, false, 0, false, p).run(spark));
        } finally {
            spark.stop();
        }
        return new ArrayList<>(Fixtures.readCsv(out.resolve("points.csv")));
    }
}
