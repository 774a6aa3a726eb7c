/**
 * The fabric: the builder that turns a scenario into devices, links, routes, partitions and CC
 * processors ({@code run.FabricBuilder}), the run loop and host actions ({@code run.Runner}), sampling,
 * results, reports and charts ({@code run}, {@code outputs}, {@code fct}), topologies ({@code topology})
 * and workload generation ({@code workload}). Everything here is set-up and reporting; the packet path
 * lives in sim-core, nic-model and switch-asic-model, the scenario schema in the scenario module, and the
 * command line in the cli module.
 */
package dev.nicsim.fabric;
