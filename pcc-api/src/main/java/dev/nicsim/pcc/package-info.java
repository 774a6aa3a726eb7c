/**
 * The programmable-congestion-control (PCC) contract: what an algorithm author codes against.
 *
 * <p>An algorithm is a {@link dev.nicsim.pcc.PccAlgorithm} created by a
 * {@link dev.nicsim.pcc.PccAlgorithmProvider} found through {@link java.util.ServiceLoader}. The
 * NIC's congestion-control processor hands it one event at a time ({@link dev.nicsim.pcc.PccEvent},
 * a flyweight over the record drawn in {@link dev.nicsim.pcc.PccEventLayout}) together with the
 * flow's context words ({@link dev.nicsim.pcc.PccContext}), the flow's attributes
 * ({@link dev.nicsim.pcc.PccAttributes}) and a {@link dev.nicsim.pcc.PccResult} to fill.
 *
 * <p>Units: event timestamps are 32-bit nanoseconds that wrap (compare with
 * {@link dev.nicsim.pcc.FixedPoint#nsSince(int, int)}); rates in results are 20-bit fixed-point
 * fractions of line rate ({@code 1 << 20} = line rate); windows are bytes; parameters of kind
 * {@link dev.nicsim.pcc.PccParameter.Kind#FIXED_16_16} are 16.16 fixed point.
 *
 * <p>This package depends on nothing of nicsim's: an algorithm written against it runs unchanged in
 * the simulator, in trace replay and in JMH. Modelled on what programmable NICs expose (the NVIDIA
 * DOCA PCC device model; docs/architecture.md "PCC contract"); names and layout are nicsim's own.
 */
package dev.nicsim.pcc;
