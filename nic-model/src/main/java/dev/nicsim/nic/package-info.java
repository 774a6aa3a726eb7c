/**
 * The RoCEv2 NIC model: {@link dev.nicsim.nic.RoceNic} with RC queue pairs as pipeline stages: the
 * requester transport (segmentation, PSNs, go-back-N), the responder (expected PSN, per-packet or
 * delayed ACK with the CE echo state machine of the DCTCP draft §3.2), the notification point
 * sending CNPs (the DCQCN paper's NP), the reaction point whose per-QP pacer, window and
 * fast-start budget (the LDCP draft §2.3, §3.1) follow the results of a
 * {@link dev.nicsim.pcc.CcProcessor} fed with PCC events, the transmit arbiter and the QP
 * table.
 *
 * <p>Configuration is a {@link dev.nicsim.nic.NicConfig}; flows are started with
 * {@link dev.nicsim.nic.RoceNic#startFlow} and report completion to a
 * {@link dev.nicsim.nic.FlowListener}. Counters use the mlx5 names. Everything runs on the
 * simulation thread and allocates nothing per packet in steady state.
 */
package dev.nicsim.nic;
