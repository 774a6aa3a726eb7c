/**
 * The fabric: topologies, workloads, scenario files, the runner, reports and the {@code nicsim}
 * command line. Everything here is set-up and reporting; the packet path lives in sim-core,
 * nic-model and switch-asic-model.
 */
package dev.nicsim.fabric;
