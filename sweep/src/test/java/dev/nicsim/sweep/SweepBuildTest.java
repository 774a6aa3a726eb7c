package dev.nicsim.sweep;

import dev.nicsim.testsupport.SharedFiles;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM options Spark needs on Java 17 are written in three places (the launcher's
 * {@code SPARK_FLAGS}, {@code spark.jvmArgs} in sweep/pom.xml, {@link SparkCluster#JVM_OPTIONS});
 * all three equal Spark's own list ({@link JavaModuleOptions}, the oracle) less the two options
 * left out on purpose. The executors' nicsim options equal the parent pom's {@code nicsim.jvmArgs}.
 */
class SweepBuildTest {
    /** Left out: an incubator-module warning on every start; an option Java 17 does not know. */
    private static final List<String> LEFT_OUT = List.of("--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED");

    private static String pomProperty(final Path pom, final String name) throws Exception {
        final Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]*)</").matcher(Files.readString(pom));
        assertTrue(m.find(), name + " in " + pom);
        return m.group(1).trim();
    }

    private static List<String> launcherArray(final String name) throws Exception {
        final List<String> lines = Files.readAllLines(SharedFiles.root().resolve("nicsim"));
        final int start = lines.indexOf(name + "=(");
        assertTrue(start >= 0, name + "=( in the launcher");
        final List<String> words = new ArrayList<>();
        for (int i = start + 1; !lines.get(i).trim().equals(")"); i++) {
            words.addAll(Arrays.asList(lines.get(i).trim().split("\\s+")));
        }
        return words;
    }

    @Test
    void sparkOptionsAreSparksOwnListInAllThreePlaces() throws Exception {
        final List<String> spark = new ArrayList<>(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
        assertTrue(spark.containsAll(LEFT_OUT), "Spark's list changed: " + spark);
        spark.removeAll(LEFT_OUT);
        assertEquals(spark, SparkCluster.JVM_OPTIONS);
        assertEquals(spark, launcherArray("SPARK_FLAGS"));
        assertEquals(spark, Arrays.asList(pomProperty(SharedFiles.root().resolve("sweep/pom.xml"), "spark.jvmArgs").split("\\s+")));
    }

    @Test
    void executorsGetNicsimsOwnOptions() throws Exception {
        assertEquals(pomProperty(SharedFiles.root().resolve("pom.xml"), "nicsim.jvmArgs"), SparkSessions.NICSIM_JVM_OPTIONS);
    }
}
