/**
 * The HPCC ns-3 simulator's experiment files (the de-facto RDMA congestion-control simulator,
 * ns-3.17 based, {@code simulation/mix/} of the HPCC repository): readers of its topology, flow and
 * configuration files, the mapping of a configuration onto an ordinary nicsim scenario
 * ({@code nicsim ns3 import}), its per-flow {@code fct.txt} output and the side-by-side comparison
 * of two runs ({@code nicsim compare}).
 *
 * <p>Every reader rejects a malformed line with a {@link dev.nicsim.scenario.ScenarioException}
 * whose one-line message is {@code file:line: what was expected, what was found}.
 */
package dev.nicsim.interop.ns3;
