/**
 * The switch ASIC model: {@link SwitchAsic} (ports x 8 priorities, shared-buffer MMU
 * with PG ingress accounting or input-and-output queueing with VOQs, PFC xoff/xon with headroom,
 * WRED/ECN on the instantaneous queue, strict priority + DWRR, ECMP, CAM congestion-flow
 * recognition, regional congestion mitigation), configured by {@link SwitchConfig},
 * {@link WredProfile} and {@link RcmConfig}.
 *
 * <p>The switch is a pipeline of stages: {@link IngressStage},
 * {@link EcmpRouter}, {@link WredEcnStage},
 * {@link SharedBufferMmu} or {@link VoqStage} with
 * {@link PfcController}, and {@link SwitchPort}; with
 * {@link CongestionCam} and {@link RegionalCongestion} as hooks.
 *
 * <p>Documents followed: the LDCP draft (draft-dai-tsvwg-pfc-free-congestion-control) §2.1 (WRED/ECN
 * marking), §2.3 Eq. (3) (Not-ECT drop at K); "Understanding DCQCN" (the article "Understanding
 * Data Center Quantized Congestion Notification (DCQCN)": WRED min/max, xOFF/xON, headroom, drop
 * point); the RCM paper ("Regional Congestion Mitigation in lossless networks")
 * §3.2 (congestion region detection: {@link RegionDetection},
 * {@link CongestionMath}, {@link CongestionNotification},
 * {@link CongestionRole}), §3.3 (CAM, {@link FlowRecognition}), §3.4
 * (RCC window, {@link RegionalControl}; SAR, {@link AdaptiveRouting}),
 * §4.1 (VOQ/OQ switch); RFC 8257 (DCTCP's marking threshold K). Everything runs on the simulation
 * thread and allocates nothing per packet in steady state.
 */
package dev.nicsim.sw;
