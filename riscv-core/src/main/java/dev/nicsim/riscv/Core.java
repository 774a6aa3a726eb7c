package dev.nicsim.riscv;

/**
 * A core with one or more hardware threads sharing one issue slot: fine-grained multithreading
 * as the BlueField DPA's cores do. Each cycle the core issues one instruction from the next
 * thread, in round-robin order, whose next instruction can issue (its operands ready and its
 * previous multi-cycle occupancy or control penalty over); a thread waiting on a long-latency
 * load (a slow {@link MemoryRegion}, a divide) gives its slot to the others, so their work hides
 * its wait. With one thread this is exactly {@link Hart#run}.
 *
 * <p>Each thread keeps its own registers, CSRs ({@code mhartid} = thread index), scoreboard and
 * branch predictor (a simplification: a real core may share the predictor); all share the
 * memory and its decoded-instruction cache. LR/SC reservations are per thread; a store by another
 * thread (or by a hart of another core sharing the memory) to the reserved bytes breaks one
 * (Volume I §8.2). {@code cycle} and {@code instret} are per thread: {@code instret} counts the
 * thread's own retired instructions, {@code cycle} the core's clock as the thread sees it (plus
 * its own offset after a write to {@code mcycle}).
 *
 * <p>Thread-safety: not thread-safe; one Java thread runs a core.
 */
public final class Core {
    private final Hart[] threads;
    private long cycle;
    private long idleCycles;
    private int last = -1;

    /**
     * Creates a core.
     *
     * @param memory  the memory its threads share
     * @param xlen    32 or 64
     * @param model   timing
     * @param threads number of hardware threads, 1 to 64
     * @throws IllegalArgumentException when a number is out of range
     */
    public Core(final Memory memory, final int xlen, final CycleModel model, final int threads) {
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("threads must be 1 to 64: " + threads);
        }
        this.threads = new Hart[threads];
        for (int i = 0; i < threads; i++) {
            this.threads[i] = new Hart(memory, xlen, model, i);
            this.threads[i].setYieldOnStall(threads > 1);
        }
    }

    /**
     * A hardware thread (to set its pc, registers and environment before running).
     *
     * @param i 0 to threads - 1
     * @return the thread
     */
    public Hart thread(final int i) {
        return threads[i];
    }

    /** @return number of hardware threads */
    public int threadCount() {
        return threads.length;
    }

    /** @return cycles elapsed on the core: when the last instruction issued plus its occupancy */
    public long cycles() {
        return cycle;
    }

    /** @return cycles in which no thread could issue */
    public long idleCycles() {
        return idleCycles;
    }

    /** @return instructions retired by all threads */
    public long instret() {
        long n = 0;
        for (final Hart h : threads) {
            n += h.instret();
        }
        return n;
    }

    /**
     * Runs until every thread has halted or the core has retired {@code maxInstructions} in
     * total (counted from construction).
     *
     * @param maxInstructions total retired-instruction limit
     */
    public void run(final long maxInstructions) {
        if (threads.length == 1) {
            final Hart h = threads[0];
            h.run(maxInstructions);
            cycle = h.cycles();
            return;
        }
        long total = instret();
        final int n = threads.length;
        while (total < maxInstructions) {
            Hart pick = null;
            long earliest = Long.MAX_VALUE;
            for (int k = 1; k <= n; k++) {
                final int i = (last + k) % n;
                final Hart h = threads[i];
                if (h.halted()) {
                    continue;
                }
                if (h.readyAt() <= cycle) {
                    pick = h;
                    last = i;
                    break;
                }
                earliest = Math.min(earliest, h.readyAt());
            }
            if (pick == null) {
                if (earliest == Long.MAX_VALUE) {
                    break;
                }
                idleCycles += earliest - cycle;
                cycle = earliest;
                continue;
            }
            final long before = pick.instret();
            pick.setCycles(cycle);
            pick.run(before + 1);
            if (pick.instret() > before || pick.halted()) {
                total += pick.instret() - before;
                pick.setReadyAt(pick.cycles());
                cycle++;
            }
            // else: it yielded on a stall and set its readyAt; the slot goes to another thread
        }
    }
}
