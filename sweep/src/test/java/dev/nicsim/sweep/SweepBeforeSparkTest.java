package dev.nicsim.sweep;

import dev.nicsim.testsupport.ConsoleCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Everything {@code sweep} can check without Spark is checked before Spark starts: a bad master
 * URL, an unreachable standalone master, an output path in the way, an existing {@code points.csv}
 * without {@code --resume}, and with {@code --resume} another sweep's or a broken
 * {@code points.csv}. Each is exit 2 with one line, and standard output is empty: the command
 * prints {@code spark VERSION MASTER: session started in ...} as soon as a session exists, so an
 * empty standard output means no Spark session was created.
 */
class SweepBeforeSparkTest {
    @TempDir
    Path tmp;

    /** Runs the command and checks exit 2, one line on standard error and no Spark session; returns the line. */
    private static String refusedBeforeSpark(final String... args) {
        final ConsoleCapture.Captured o = Fixtures.sweepMain(args);
        assertEquals(2, o.exitCode(), o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertEquals("", o.out(), "a Spark session was started before the error");
        return o.err().strip();
    }

    private Path sweep() throws Exception {
        return Fixtures.sweepFile(tmp, "set: " + Fixtures.TINY_SET + "\naxes:\n  algorithm.name: [dcqcn, dctcp]\nseeds: [1]\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "bogus://x | expected local, local[N], local[*], local[N,F] or spark://HOST:PORT[,HOST:PORT...]",
        "local[0] | N (threads) must be a whole number of at least 1",
        "local[2,0] | F (task attempts) must be a whole number of at least 1",
        "local[x] | expected local, local[N]",
        "local-cluster[1,1,1024] | expected local, local[N]",
        "yarn | expected local, local[N]",
        "spark://h | 'h' is not HOST:PORT (a host name or address and a port in 1..65535)",
        "spark://:7077 | ':7077' is not HOST:PORT",
        "spark://h:70000 | 'h:70000' is not HOST:PORT",
        "spark://h:7077/x | 'h:7077/x' is not HOST:PORT",
        "spark://h:1, | '' is not HOST:PORT",
    })
    void aBadMasterIsOneLine(final String master, final String expected) throws Exception {
        final String line = refusedBeforeSpark("sweep", sweep().toString(), "--master", master, "--out",
            tmp.resolve("out").toString(), "--no-progress");
        assertTrue(line.startsWith("nicsim: --master " + master + ": "), line);
        assertTrue(line.contains(expected), line);
        assertTrue(!Files.exists(tmp.resolve("out")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "local[1]", "local[*]", "local[2,3]", "local[*, 4]", "spark://h:7077",
        "spark://127.0.0.1:7077,h2.example:7078", "spark://[::1]:7077"})
    void sparksOwnFormsAreAccepted(final String master) {
        assertDoesNotThrow(() -> SparkMasters.checkForm(master, false));
    }

    /** YARN and Kubernetes pass only when spark-submit set them (its distribution has their cluster managers). */
    @Test
    void yarnAndKubernetesOnlyFromSparkSubmit() {
        assertDoesNotThrow(() -> SparkMasters.checkForm("yarn", true));
        assertDoesNotThrow(() -> SparkMasters.checkForm("k8s://https://h:6443", true));
        assertEquals("--master k8s://https://h:6443: expected local, local[N], local[*], local[N,F] or"
            + " spark://HOST:PORT[,HOST:PORT...]",
            assertThrows(SweepException.class, () -> SparkMasters.checkForm("k8s://https://h:6443", false)).getMessage());
        assertEquals("spark.master bogus: expected local, local[N], local[*], local[N,F] or spark://HOST:PORT[,HOST:PORT...]",
            assertThrows(SweepException.class, () -> SparkMasters.checkForm("bogus", true)).getMessage());
    }

    /**
     * A standalone master whose port nobody listens on (a port just bound and released): one line
     * naming the master and the address, before Spark starts (was: Spark's three registration
     * attempts, 20 s apart, about 120 lines of stack traces, then an internal error).
     */
    @Test
    void anUnreachableStandaloneMasterIsOneLine() throws Exception {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        final String master = "spark://127.0.0.1:" + port;
        assertEquals("nicsim: --master " + master + ": cannot connect to 127.0.0.1:" + port + " (connection refused); is the"
            + " master running? (./nicsim spark-cluster start starts one on this machine)",
            refusedBeforeSpark("sweep", sweep().toString(), "--master", master, "--out", tmp.resolve("out").toString(),
                "--no-progress"));
        assertTrue(!Files.exists(tmp.resolve("out")));
    }

    @Test
    void anOutputPathThatIsAFileIsRefused() throws Exception {
        final Path file = Files.writeString(tmp.resolve("afile"), "x");
        assertEquals("nicsim: " + file + ": exists and is not a directory; give a directory for --out",
            refusedBeforeSpark("sweep", sweep().toString(), "--out", file.toString(), "--no-progress"));
        assertEquals("nicsim: " + file.resolve("sub") + ": cannot be created: " + file + " is not a directory; give another --out",
            refusedBeforeSpark("sweep", sweep().toString(), "--out", file.resolve("sub").toString(), "--no-progress"));
    }

    @Test
    void anOutputFileThatIsADirectoryIsRefused() throws Exception {
        final Path out = Files.createDirectories(tmp.resolve("out").resolve("summary.csv")).getParent();
        assertEquals("nicsim: " + out.resolve("summary.csv") + ": exists and is not a file; the sweep writes a file there;"
            + " give another --out", refusedBeforeSpark("sweep", sweep().toString(), "--out", out.toString(), "--no-progress"));
    }

    @Test
    void anExistingPointsCsvWithoutResumeIsRefused() throws Exception {
        final Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("points.csv"), "point\n");
        assertEquals("nicsim: " + out.resolve("points.csv") + ": exists; add --resume to run only its missing or failed"
            + " points, or give another --out",
            refusedBeforeSpark("sweep", sweep().toString(), "--out", out.toString(), "--no-progress"));
    }

    /** --resume on the directory of a sweep with other axes: its columns are named, before Spark starts. */
    @Test
    void resumeOnAnotherSweepsDirectoryIsRefused() throws Exception {
        final Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("points.csv"), "point,seed,partitions,workload.load,status,error\n0,1,1,0.3,ok,\n");
        final String line = refusedBeforeSpark("sweep", sweep().toString(), "--out", out.toString(), "--resume", "--no-progress");
        assertTrue(line.startsWith("nicsim: " + out.resolve("points.csv") + ":1: columns [point, seed, partitions,"
            + " workload.load, status, error] are not this sweep's [point, seed, partitions, algorithm.name, status,"), line);
        assertTrue(line.endsWith("; give another --out, or drop --resume"), line);
    }

    /** A points.csv whose third line holds a byte that is not UTF-8: named with that line (was: "not UTF-8 text" alone). */
    @Test
    void resumeOnAPointsCsvThatIsNotUtf8NamesTheFileAndLine() throws Exception {
        final Path out = Files.createDirectories(tmp.resolve("out"));
        final SweepSpec spec = SweepSpec.load(sweep());
        final ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes((String.join(",", PointsFile.header(spec)) + "\n").getBytes(StandardCharsets.UTF_8));
        b.writeBytes("0,1,1,dcqcn,failed,x".getBytes(StandardCharsets.UTF_8));
        b.writeBytes(",".repeat(PointMetrics.COLUMNS.size()).getBytes(StandardCharsets.UTF_8));
        b.writeBytes("\n1,1,1,dctcp,failed,caf".getBytes(StandardCharsets.UTF_8));
        b.writeBytes(new byte[] {(byte) 0xE9, '\n'}); // Latin-1 "é"
        Files.write(out.resolve("points.csv"), b.toByteArray());
        assertEquals("nicsim: " + out.resolve("points.csv") + ":3: not UTF-8 text (a malformed byte sequence); give another"
            + " --out, or drop --resume",
            refusedBeforeSpark("sweep", sweep().toString(), "--out", out.toString(), "--resume", "--no-progress"));
    }

    /** A quote closed in the middle of a value, then more text: not valid CSV, named with its line. */
    @Test
    void resumeOnAPointsCsvThatIsNotCsvNamesTheFileAndLine() throws Exception {
        final Path out = Files.createDirectories(tmp.resolve("out"));
        final SweepSpec spec = SweepSpec.load(sweep());
        final String empty = ",".repeat(PointMetrics.COLUMNS.size());
        Files.writeString(out.resolve("points.csv"), String.join(",", PointsFile.header(spec)) + "\n"
            + "0,1,1,dcqcn,failed,x" + empty + "\n1,1,1,dctcp,failed,\"a\"b" + empty + "\n");
        final String line = refusedBeforeSpark("sweep", sweep().toString(), "--out", out.toString(), "--resume", "--no-progress");
        assertTrue(line.startsWith("nicsim: " + out.resolve("points.csv") + ":3: not valid CSV: Invalid character between"
            + " encapsulated token and delimiter"), line);
    }

    /** {@link SweepRun#check} of a sweep whose output directory does not exist yet creates nothing. */
    @Test
    void checkWritesNothing() throws Exception {
        final Path out = tmp.resolve("out").resolve("sub");
        new SweepRun(SweepSpec.load(sweep()), out, true, true, 0, false, System.out).check();
        assertTrue(!Files.exists(tmp.resolve("out")), "check created " + out);
    }
}
