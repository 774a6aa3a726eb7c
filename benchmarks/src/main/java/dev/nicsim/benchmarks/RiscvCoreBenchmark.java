package dev.nicsim.benchmarks;

import dev.nicsim.riscv.Assembler;
import dev.nicsim.riscv.CycleModel;
import dev.nicsim.riscv.Hart;
import dev.nicsim.riscv.Memory;
import dev.nicsim.riscv.MemoryHierarchy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

import static dev.nicsim.riscv.Assembler.*;

/**
 * Instructions per second of one riscv-core hart with the cycle model on (target: at least
 * 150 M instructions/s and 0 B/op in steady state), on two RV64 programs assembled in Java:
 * <ul>
 * <li>{@code computeLoop}: an array walk with loads, a multiply, ALU ops and a loop branch;</li>
 * <li>{@code dcqcnHandler}: a DCQCN-like reaction-point handler called once per event (jal/ret):
 * loads a flow's 48-byte context, on every fourth event a CNP cut (alpha update, rate cut by
 * rate * alpha), otherwise a recovery step toward the target rate and a byte counter, stores
 * the context back; 64 flows in turn.</li>
 * </ul>
 * One operation is one retired instruction (each invocation runs 1,000,000); the score in
 * ops/us is millions of instructions per second.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar RiscvCoreBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RiscvCoreBenchmark extends NicsimBenchmark {
    private static final int INSTRUCTIONS = 1_000_000;
    private static final long CODE = 0x1000;
    private static final long DATA = 0x10000;

    /**
     * Cycle model name. With {@code bf3-dpa} both regions are timed by the model's tag-only cache
     * hierarchy (one core, one thread), as {@code riscv run} times them: L1D lookups per load,
     * L1I lookups per new code line.
     */
    @Param({"e31", "ibex", "bf3-dpa"})
    public String model;

    /**
     * Execution engine ({@link Hart.Engine}): {@code interp} (the interpreter) or {@code translate}
     * (blocks translated to JVM bytecode); both give the same cycles.
     */
    @Param({"interp", "translate"})
    public String engine;

    private Hart compute;
    private Hart handler;

    /** Creates the benchmark (JMH instantiates it). */
    public RiscvCoreBenchmark() {
    }

    /** Assembles both programs and warms nothing (JMH warm-up does). */
    @Setup(Level.Trial)
    public void setup() {
        final CycleModel m = CycleModel.byName(model);
        compute = hart(computeLoop(), m);
        handler = hart(dcqcnHandler(), m);
        compute.setEngine(Hart.Engine.parse(engine));
        handler.setEngine(Hart.Engine.parse(engine));
    }

    private static Hart hart(final byte[] code, final CycleModel model) {
        final Memory mem = new Memory();
        if (model.memory() == null) {
            mem.addRegion("code", CODE, 4096, 0);
            mem.addRegion("data", DATA, 64 * 1024, 0);
        } else {
            final MemoryHierarchy h = new MemoryHierarchy(model.memory(), 1, 1);
            mem.addRegion("code", CODE, 4096, h);
            mem.addRegion("data", DATA, 64 * 1024, h);
        }
        mem.write(CODE, code);
        for (int i = 0; i < 1024; i++) {
            mem.store(DATA + 8L * i, 8, i * 0x9E3779B97F4A7C15L);
        }
        final Hart h = new Hart(mem, 64, model, 0);
        h.setPc(CODE);
        h.setReg(S0, DATA);
        return h;
    }

    static byte[] computeLoop() {
        final Assembler a = new Assembler(CODE);
        a.addi(S1, ZERO, 1024);
        a.label("outer").addi(A0, ZERO, 0);
        a.label("loop")
            .slli(T0, A0, 3)
            .add(T0, T0, S0)
            .ld(T1, 0, T0)
            .add(A1, A1, T1)
            .mul(T2, T1, A0)
            .xor(A2, A2, T2)
            .srli(T3, T1, 7)
            .or(A3, A3, T3)
            .addi(A0, A0, 1)
            .blt(A0, S1, "loop")
            .jal(ZERO, "outer");
        return a.assemble();
    }

    static byte[] dcqcnHandler() {
        final Assembler a = new Assembler(CODE);
        // s2 = event counter; the "dispatcher" calls the handler with a0 = context address, a1 = event type
        a.label("dispatch")
            .andi(T0, S2, 63)
            .addi(T1, ZERO, 48)
            .mul(T0, T0, T1)
            .add(A0, S0, T0)
            .andi(A1, S2, 3)
            .jal(RA, "handler")
            .addi(S2, S2, 1)
            .jal(ZERO, "dispatch");
        // context: +0 alpha (Q10), +8 rate, +16 target rate, +24 byte counter
        a.label("handler")
            .ld(T0, 0, A0)
            .ld(T1, 8, A0)
            .ld(T2, 16, A0)
            .bne(A1, ZERO, "recover")
            // CNP: alpha = alpha - alpha/16 + 1024/16; target = rate; rate -= rate * alpha >> 11
            .srli(T3, T0, 4)
            .sub(T0, T0, T3)
            .addi(T0, T0, 64)
            .add(T2, T1, ZERO)
            .mul(T3, T1, T0)
            .srli(T3, T3, 11)
            .sub(T1, T1, T3)
            .jal(ZERO, "store");
        a.label("recover")
            .ld(T4, 24, A0)
            .addi(T4, T4, 1024)
            .sd(T4, 24, A0)
            .add(T1, T1, T2)
            .srli(T1, T1, 1)
            .srli(T3, T0, 8)
            .sub(T0, T0, T3);
        a.label("store")
            .sd(T0, 0, A0)
            .sd(T1, 8, A0)
            .sd(T2, 16, A0)
            .ret();
        return a.assemble();
    }

    /**
     * One million instructions of the compute loop.
     *
     * @return a register (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(INSTRUCTIONS)
    public long computeLoop1M() {
        compute.run(compute.instret() + INSTRUCTIONS);
        return compute.reg(A1);
    }

    /**
     * One million instructions of the DCQCN-like handler and its dispatcher.
     *
     * @return a register (consumed by JMH)
     */
    @Benchmark
    @OperationsPerInvocation(INSTRUCTIONS)
    public long dcqcnHandler1M() {
        handler.run(handler.instret() + INSTRUCTIONS);
        return handler.reg(T1);
    }
}
