/**
 * The switch ASIC model: {@link dev.nicsim.sw.SwitchAsic} (ports x 8 priorities, shared-buffer MMU
 * with PG ingress accounting or input-and-output queueing with VOQs, PFC xoff/xon with headroom,
 * WRED/ECN on the instantaneous queue, strict priority + DWRR, ECMP, CAM congestion-flow
 * recognition, regional congestion mitigation), configured by {@link dev.nicsim.sw.SwitchConfig},
 * {@link dev.nicsim.sw.WredProfile} and {@link dev.nicsim.sw.RcmConfig}.
 *
 * <p>Specs: 000 §2.1 (WRED/ECN marking), §2.3 Eq. (3) (Not-ECT drop at K); 004 (WRED min/max,
 * xOFF/xON, headroom, drop point); 001 §3.2 (congestion region detection:
 * {@link dev.nicsim.sw.CongestionMath}, {@link dev.nicsim.sw.CongestionNotification},
 * {@link dev.nicsim.sw.CongestionRole}), §3.3 (CAM), §3.4 (RCC window, SAR), §4.1 (VOQ/OQ
 * switch). Everything runs on the simulation thread and
 * allocates nothing per packet in steady state.
 */
package dev.nicsim.sw;
