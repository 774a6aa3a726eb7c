/**
 * The programmable-congestion-control (PCC) contract: what an algorithm author codes against.
 *
 * <p>An algorithm is a {@link PccAlgorithm} created by a
 * {@link PccAlgorithmProvider} found through {@link ServiceLoader}. The
 * NIC's congestion-control processor hands it one event at a time ({@link PccEvent},
 * a flyweight over the record drawn in {@link PccEventLayout}) together with the
 * flow's context words ({@link PccContext}), the flow's attributes
 * ({@link PccAttributes}) and a {@link PccResult} to fill.
 *
 * <p>Units: event timestamps are 32-bit nanoseconds that wrap (compare with
 * {@link FixedPoint#nsSince(int, int)}); rates in results are 20-bit fixed-point
 * fractions of line rate ({@code 1 << 20} = line rate); windows are bytes; parameters of kind
 * {@link PccParameter.Kind#FIXED_16_16} are 16.16 fixed point.
 *
 * <p>This package depends on nothing of nicsim's: an algorithm written against it runs unchanged in
 * the simulator, in trace replay and in JMH. Modelled on what programmable NICs expose (the NVIDIA
 * DOCA PCC device model; docs/architecture.md "PCC contract"); names and layout are nicsim's own.
 */
package dev.nicsim.pcc;

import java.util.ServiceLoader;
