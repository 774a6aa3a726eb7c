package dev.nicsim.benchmarks;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every nicsim benchmark shares, inherited by JMH (its annotations are {@code @Inherited}):
 * one fork, 3 warm-up and 5 measured iterations of 1 s, and the forked JVM's flags. The flags are
 * the libraries' run-time flags, the same list as {@code nicsim.jvmArgs} in the parent
 * {@code pom.xml} and {@code JVM_FLAGS} in {@code ./nicsim} ({@code FabricBuildTest} checks that
 * all three agree). A benchmark class extends this and adds its own {@code @State},
 * {@code @BenchmarkMode} and {@code @OutputTimeUnit}.
 *
 * <p>Thread-safety: no state of its own.
 */
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens", "java.base/java.io=ALL-UNNAMED",
    "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens", "java.base/java.util=ALL-UNNAMED", "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
    "-Dchronicle.analytics.disable=true",
    "-Dagrona.disable.bounds.checks=false"})
public abstract class NicsimBenchmark {
    /** For subclasses (JMH instantiates them). */
    protected NicsimBenchmark() {
    }
}
