/**
 * The simulation core: the discrete-event kernel in picoseconds, the packet model and its pool,
 * links with serialisation and propagation delay, egress ports that honour PFC pause per priority,
 * seeded per-component random streams and hardware-style counters.
 *
 * <p>Everything here is single-threaded: one {@link Simulator} drives all devices of
 * one run. Nothing allocates per event or per packet in steady state.
 */
package dev.nicsim.sim;
