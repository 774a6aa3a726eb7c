package dev.nicsim.sim;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * The default {@link JitGate}: runs windows on the coordinator alone while the JVM's just-in-time
 * compiler is busy at least half a core.
 *
 * <h2>Rationale</h2>
 * A window ends at a barrier, so it lasts as long as its slowest thread. When the run's threads
 * occupy every processor, the compiler threads (which compile the hot paths early in a run) take
 * CPU from the partition threads; a thread descheduled in the middle of a partition then holds
 * every other thread at the barrier for a scheduler time slice. Running the window on one thread
 * leaves the other processors to the compiler and trades that stall for serial execution, which
 * pays while compilation is heavy and costs once it has settled; the gate therefore opens again
 * as soon as the compiler's share falls below half a core. When the machine has a processor to
 * spare beyond the run's threads, the compiler does not compete and {@link #forRun} gives
 * {@link JitGate#OPEN}.
 *
 * <h2>Decision</h2>
 * Every {@value #CHECK_MS} ms of wall time (at the first window after that) the gate reads the
 * JVM's accumulated compilation time ({@link CompilationMXBean#getTotalCompilationTime()}, ms);
 * over the last {@value #CHECK_PERIODS} check periods (a compilation's time is credited when it
 * ends, so one period alone is too noisy) it shuts when the compilation time is at least half the
 * elapsed wall time, else it opens. The answer holds until the next check.
 *
 * <p>Thread-safety: not thread-safe; the coordinator's alone ({@link JitGate}). Allocates nothing
 * after construction.
 */
public final class CompileTimeGate implements JitGate {
    /** Wall time between two readings of the compilation time, ms. */
    static final long CHECK_MS = 100;
    /** Check periods the decision looks back over. */
    static final int CHECK_PERIODS = 3;

    private final LongSupplier compileMs;
    private final LongSupplier nanoTime;
    private final long checkNs;
    private final long[] periodMs = new long[CHECK_PERIODS];
    private final long[] periodNs = new long[CHECK_PERIODS];
    private int checks;
    private long checkedAtNs;
    private long compiledMs;
    private boolean alone;

    /**
     * @param compileMs the compiler's accumulated compilation time, ms, non-decreasing
     * @param nanoTime  the wall clock, ns ({@link System#nanoTime} outside tests)
     * @param checkNs   wall time between two readings, ns, {@code >= 0} (0: before every window)
     */
    CompileTimeGate(final LongSupplier compileMs, final LongSupplier nanoTime, final long checkNs) {
        this.compileMs = compileMs;
        this.nanoTime = nanoTime;
        this.checkNs = checkNs;
    }

    /**
     * The gate of a run on {@code threads} threads: this policy on the JVM's compiler when the run
     * has workers, the machine has at most {@code threads} processors, the JVM measures its
     * compilation time and {@code -D}{@value PartitionedRun#JIT_GATE_PROPERTY} is not
     * {@code false}; else {@link JitGate#OPEN}.
     *
     * @param threads the run's threads, the coordinator included, {@code >= 1}
     * @return the gate
     */
    public static JitGate forRun(final int threads) {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (threads < 2 || !Boolean.parseBoolean(System.getProperty(PartitionedRun.JIT_GATE_PROPERTY, "true"))
            || Runtime.getRuntime().availableProcessors() > threads || jit == null
            || !jit.isCompilationTimeMonitoringSupported()) {
            return JitGate.OPEN;
        }
        return new CompileTimeGate(jit::getTotalCompilationTime, System::nanoTime, CHECK_MS * 1_000_000L);
    }

    @Override
    public void start() {
        checkedAtNs = nanoTime.getAsLong();
        compiledMs = compileMs.getAsLong();
    }

    @Override
    public boolean runAlone() {
        final long now = nanoTime.getAsLong();
        final long elapsedNs = now - checkedAtNs;
        if (elapsedNs >= checkNs) {
            final long ms = compileMs.getAsLong();
            final int slot = checks++ % CHECK_PERIODS;
            periodMs[slot] = ms - compiledMs;
            periodNs[slot] = elapsedNs;
            long sumMs = 0;
            long sumNs = 0;
            for (int i = 0; i < CHECK_PERIODS; i++) {
                sumMs += periodMs[i];
                sumNs += periodNs[i];
            }
            alone = sumMs * 2_000_000L >= sumNs;
            compiledMs = ms;
            checkedAtNs = now;
        }
        return alone;
    }
}
