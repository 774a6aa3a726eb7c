/**
 * The switch ASIC model: {@link dev.nicsim.sw.SwitchAsic} (ports x 8 priorities, shared-buffer MMU
 * with PG ingress accounting or input-and-output queueing with VOQs, PFC xoff/xon with headroom,
 * WRED/ECN on the instantaneous queue, strict priority + DWRR, ECMP, CAM congestion-flow
 * recognition, regional congestion mitigation), configured by {@link dev.nicsim.sw.SwitchConfig},
 * {@link dev.nicsim.sw.WredProfile} and {@link dev.nicsim.sw.RcmConfig}.
 *
 * <p>The switch is a pipeline of stages: {@link dev.nicsim.sw.IngressStage},
 * {@link dev.nicsim.sw.EcmpRouter}, {@link dev.nicsim.sw.WredEcnStage},
 * {@link dev.nicsim.sw.SharedBufferMmu} or {@link dev.nicsim.sw.VoqStage} with
 * {@link dev.nicsim.sw.PfcController}, and {@link dev.nicsim.sw.SwitchPort}; with
 * {@link dev.nicsim.sw.CongestionCam} and {@link dev.nicsim.sw.RegionalCongestion} as hooks.
 *
 * <p>Documents followed: the LDCP draft (draft-dai-tsvwg-pfc-free-congestion-control) §2.1 (WRED/ECN
 * marking), §2.3 Eq. (3) (Not-ECT drop at K); "Understanding DCQCN" (the article "Understanding
 * Data Center Quantized Congestion Notification (DCQCN)": WRED min/max, xOFF/xON, headroom, drop
 * point); the RCM paper ("Regional Congestion Mitigation in lossless networks")
 * §3.2 (congestion region detection: {@link dev.nicsim.sw.RegionDetection},
 * {@link dev.nicsim.sw.CongestionMath}, {@link dev.nicsim.sw.CongestionNotification},
 * {@link dev.nicsim.sw.CongestionRole}), §3.3 (CAM, {@link dev.nicsim.sw.FlowRecognition}), §3.4
 * (RCC window, {@link dev.nicsim.sw.RegionalControl}; SAR, {@link dev.nicsim.sw.AdaptiveRouting}),
 * §4.1 (VOQ/OQ switch); RFC 8257 (DCTCP's marking threshold K). Everything runs on the simulation
 * thread and allocates nothing per packet in steady state.
 */
package dev.nicsim.sw;
