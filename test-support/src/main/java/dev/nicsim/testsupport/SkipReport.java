package dev.nicsim.testsupport;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints, after this module's tests, how many tests were skipped and why, one line per reason
 * (e.g. "needs ../shared/data/captures/x.pcap (absent in a clone of the project alone)") with the
 * tests it skipped, so a run without {@code ../shared} or the RISC-V tools says what it did not test.
 * Every module that has test-support on its test class path registers it, through
 * {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}; prints nothing when
 * nothing was skipped.
 *
 * <p>Thread-safety: callbacks may come from several threads; the list is guarded by {@code this}.
 */
public final class SkipReport implements TestExecutionListener {
    private final List<String[]> skipped = new ArrayList<>();

    /** Created by the JUnit Platform's service loader. */
    public SkipReport() {
    }

    @Override
    public synchronized void executionSkipped(final TestIdentifier id, final String reason) {
        skipped.add(new String[]{reason, name(id)});
    }

    @Override
    public synchronized void executionFinished(final TestIdentifier id, final TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            skipped.add(new String[]{result.getThrowable().map(Throwable::getMessage).orElse("aborted"), name(id)});
        }
    }

    @Override
    public synchronized void testPlanExecutionFinished(final TestPlan plan) {
        if (skipped.isEmpty()) {
            return;
        }
        final Map<String, List<String>> byReason = new TreeMap<>();
        for (final String[] s : skipped) {
            byReason.computeIfAbsent(s[0], k -> new ArrayList<>()).add(s[1]);
        }
        final StringBuilder b = new StringBuilder();
        b.append("[nicsim] ").append(skipped.size()).append(skipped.size() == 1 ? " test" : " tests").append(" skipped:\n");
        for (final Map.Entry<String, List<String>> e : byReason.entrySet()) {
            b.append("[nicsim]   ").append(e.getKey()).append(": ").append(String.join(", ", e.getValue())).append('\n');
        }
        System.out.print(b);
        System.out.flush();
        skipped.clear();
    }

    /** "Class.method" from the unique id's legacy reporting name and its parent's. */
    private static String name(final TestIdentifier id) {
        final String legacy = id.getLegacyReportingName();
        final String parent = id.getParentId().map(p -> p.replaceAll(".*\\[class:([^\\]]*)\\].*", "$1")).orElse("");
        final String cls = parent.substring(parent.lastIndexOf('.') + 1);
        return (cls.isEmpty() ? "" : cls + ".") + legacy.replace("()", "");
    }
}
