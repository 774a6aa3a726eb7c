package dev.nicsim.benchmarks;

import dev.nicsim.pcc.PccAlgorithm;
import dev.nicsim.pcc.PccAttributes;
import dev.nicsim.pcc.PccContext;
import dev.nicsim.pcc.PccCounters;
import dev.nicsim.pcc.PccEvent;
import dev.nicsim.pcc.PccEventType;
import dev.nicsim.pcc.PccResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * The handler benchmarks' own share: {@link HandlerFixture#runRound} exactly as the handler
 * benchmarks call it (the round's context restore, and per op the result reset, the call, the digest),
 * with a stand-in handler that reads the event's type and one context word and sets the rate from
 * them, on DCQCN's recorded CNP states. Subtract it from a handler benchmark's figure for an
 * estimate of the handler alone, call included: the stand-in is inlined into the round's loop,
 * the real handlers are called ({@link HandlerFixture}, class comment).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar HandlerFixtureBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HandlerFixtureBenchmark extends NicsimBenchmark {
    private HandlerFixture fixture;

    /** Creates the benchmark (JMH instantiates it). */
    public HandlerFixtureBenchmark() {
    }

    /** A handler that reads the event type and context word 1 and sets the rate from them. */
    static final class StandIn implements PccAlgorithm {
        private final PccCounters counters = new PccCounters();

        @Override
        public int contextWords() {
            return PccContext.DEFAULT_WORDS;
        }

        @Override
        public void initFlow(final PccContext context, final int nowNs, final PccAttributes attributes,
                             final PccResult result) {
        }

        @Override
        public void onEvent(final PccContext context, final PccEvent event, final PccAttributes attributes,
                            final PccResult result) {
            result.rate(event.type() + context.get(1));
        }

        @Override
        public PccCounters counters() {
            return counters;
        }
    }

    /** DCQCN's own fixture, as {@code DcqcnHandlerBenchmark} builds it, for the call floor. */
    private HandlerFixture dcqcn;

    /** Builds the (context, event) pools from a DCQCN flow. */
    @Setup(Level.Trial)
    public void setup() {
        fixture = new HandlerFixture("dcqcn", HandlerFixture.Timers.SCRIPTED, new StandIn());
        dcqcn = new HandlerFixture("dcqcn", HandlerFixture.Timers.ARMED);
    }

    /**
     * The fixture with the stand-in handler on the CNP lane.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long harness() {
        return fixture.runRound(PccEventType.CNP);
    }

    /**
     * The call floor of the DCQCN benchmarks: {@code DcqcnHandlerBenchmark}'s round on the real
     * DCQCN handler, on its RTT_RESPONSE lane, where the handler reads the event type and returns
     * (DCQCN ignores RTT responses). Everything a DCQCN op pays but the handler's work: the round's
     * context restore, the result reset, the call, the type read and the digest. On the real lanes
     * the handler is always a real call (its compiled code is too big to inline); here C2 may
     * inline a handler whose bytecode is under {@code FreqInlineSize} (325 bytes), so run with
     * {@code -jvmArgsPrepend -XX:CompileCommand=dontinline,dev.nicsim.microcode.algorithms.DcqcnAlgorithm::onEvent}
     * to keep the call.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long callFloor() {
        return dcqcn.runRound(PccEventType.RTT_RESPONSE);
    }

    /**
     * {@link #callFloor} without the round's context restore (exact here: DCQCN writes nothing on
     * an RTT response); the difference is the restore's share of an op.
     *
     * @return a digest of the result (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(HandlerFixture.POOL)
    public long callFloorWithoutRestore() {
        return dcqcn.runRoundWithoutRestore(PccEventType.RTT_RESPONSE);
    }
}
