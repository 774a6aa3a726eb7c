/**
 * The switch ASIC model: {@link dev.nicsim.sw.SwitchAsic} (ports x 8 priorities, shared-buffer MMU
 * with PG ingress accounting, PFC xoff/xon with headroom, WRED/ECN on the instantaneous queue,
 * strict priority + DWRR, ECMP, CAM congestion-flow recognition), configured by
 * {@link dev.nicsim.sw.SwitchConfig} and {@link dev.nicsim.sw.WredProfile}.
 *
 * <p>Specs: 000 §2.1 (WRED/ECN marking), §2.3 Eq. (3) (Not-ECT drop at K); 004 (WRED min/max,
 * xOFF/xON, headroom, drop point); 001 §3.3 (CAM). Everything runs on the simulation thread and
 * allocates nothing per packet in steady state.
 */
package dev.nicsim.sw;
