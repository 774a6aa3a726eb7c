package dev.nicsim.sim;

import java.util.Arrays;

/**
 * Free list of {@link Packet}s so the packet path allocates nothing in steady state: the pool
 * grows to the run's peak number of packets in flight and then recycles.
 *
 * <p>Thread-safety: not thread-safe; one pool per simulation.
 */
public final class PacketPool {
    private Packet[] free = new Packet[1024];
    private int freeCount;
    private long allocated;
    private long outstanding;
    private final boolean rcmFlowIds;
    private final boolean intHops;

    /** Creates an empty pool whose packets can carry RCM congestion notifications. */
    public PacketPool() {
        this(true);
    }

    /**
     * Creates an empty pool.
     *
     * @param rcmFlowIds whether its packets get room for RCM flow IDs ({@link Packet#rcmFlowIds});
     *                   false for a fabric without regional congestion mitigation, whose packets
     *                   are then 80 bytes smaller
     */
    public PacketPool(final boolean rcmFlowIds) {
        this(rcmFlowIds, false);
    }

    /**
     * Creates an empty pool.
     *
     * @param rcmFlowIds whether its packets get room for RCM flow IDs ({@link Packet#rcmFlowIds})
     * @param intHops    whether its packets get room for INT hop records ({@link Packet#intHops}; HPCC only)
     */
    public PacketPool(final boolean rcmFlowIds, final boolean intHops) {
        this.rcmFlowIds = rcmFlowIds;
        this.intHops = intHops;
    }

    /** @return whether this pool's packets have room for RCM flow IDs ({@link Packet#rcmFlowIds}) */
    public boolean carriesRcmFlowIds() {
        return rcmFlowIds;
    }

    /**
     * Takes a cleared packet from the pool, allocating only when the pool is empty.
     *
     * @return a cleared packet
     */
    public Packet acquire() {
        outstanding++;
        if (freeCount == 0) {
            allocated++;
            return new Packet(rcmFlowIds, intHops);
        }
        final Packet p = free[--freeCount];
        free[freeCount] = null;
        p.inPool = false;
        p.clear();
        return p;
    }

    /**
     * Returns a packet to the pool. The caller must not touch it afterwards: the next
     * {@link #acquire()} may hand it to another owner.
     *
     * @param p packet to recycle, not null
     * @throws IllegalStateException if the packet is already in the pool (released twice)
     */
    public void release(final Packet p) {
        if (p.inPool) {
            throw new IllegalStateException("packet released twice: " + p);
        }
        p.inPool = true;
        outstanding--;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, free.length * 2);
        }
        free[freeCount++] = p;
    }

    /** @return packets free in the pool (ready for {@link #acquire()}) */
    public int freeCount() {
        return freeCount;
    }

    /**
     * Moves free packets to another pool (a partitioned run's barrier rebalances its partitions'
     * pools, since a frame acquired in one partition is released in the one that receives it).
     * The most recently freed packets move first. Both pools must be idle (no partition running).
     * {@link #outstanding()} is unchanged (it counts this pool's acquires less its releases).
     * Allocation-free unless {@code to}'s free list grows.
     *
     * @param to    the receiving pool, not this one
     * @param count packets to move, {@code 0 .. freeCount()}
     * @throws IllegalArgumentException if {@code count} is out of range or {@code to} is this pool
     */
    public void moveFreeTo(final PacketPool to, final int count) {
        if (count < 0 || count > freeCount || to == this) {
            throw new IllegalArgumentException("moveFreeTo: count must be in 0.." + freeCount + " and the pool another, got "
                + count);
        }
        if (to.freeCount + count > to.free.length) {
            to.free = Arrays.copyOf(to.free, Math.max(to.free.length * 2, to.freeCount + count));
        }
        for (int i = 0; i < count; i++) {
            final Packet p = free[--freeCount];
            free[freeCount] = null;
            to.free[to.freeCount++] = p;
        }
    }

    /** @return packets ever allocated (the pool's peak) */
    public long allocated() {
        return allocated;
    }

    /** @return packets acquired and not yet released */
    public long outstanding() {
        return outstanding;
    }
}
