/**
 * The RoCEv2 NIC model: {@link dev.nicsim.nic.RoceNic} with RC queue pairs (requester and
 * responder, go-back-N, per-packet or delayed ACK with the DCTCP CE state machine of spec 002
 * §3.2), the notification point sending CNPs (spec 003 §4), and the reaction point whose per-QP
 * pacer, window and fast-start budget (spec 000 §2.3, §3.1) follow the results of a
 * {@link dev.nicsim.microcode.CcProcessor} fed with PCC events.
 *
 * <p>Configuration is a {@link dev.nicsim.nic.NicConfig}; flows are started with
 * {@link dev.nicsim.nic.RoceNic#startFlow} and report completion to a
 * {@link dev.nicsim.nic.FlowListener}. Counters use the mlx5 names. Everything runs on the
 * simulation thread and allocates nothing per packet in steady state.
 */
package dev.nicsim.nic;
