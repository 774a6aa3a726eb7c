/*
 * nicsim_pcc.h - nicsim extensions to the DOCA PCC device API: what the ports of nicsim's Java
 * algorithms need beyond DOCA (exact TX bytes, Java event type and flags, flow attributes,
 * window/timer/fast-start results, a flow-init call, parameter kinds and units).
 * Firmware that uses only DOCA names does not need this header. See firmware/ABI.md.
 */
#ifndef NICSIM_PCC_H
#define NICSIM_PCC_H

#include "doca_pcc_dev.h"
#include "doca_pcc_np_dev.h"

/** nicsim's probe request layout (ABI.md section 9): Ethernet 14 + IPv4 20, then UDP 8 + MAD 24. */
#define NICSIM_NP_L4_OFFSET 34u
#define NICSIM_NP_PAYLOAD_OFFSET 66u

/** nicsim event type beyond DOCA's: the flow's timer (armed by nicsim_pcc_set_timer_ns) expired. */
#define NICSIM_PCC_EVNT_TIMER 8

/** Java PccEventType codes (the event's nicsim_type byte). */
#define NICSIM_PCC_TYPE_TX_BURST 0
#define NICSIM_PCC_TYPE_ACK 1
#define NICSIM_PCC_TYPE_NACK 2
#define NICSIM_PCC_TYPE_CNP 3
#define NICSIM_PCC_TYPE_RTT_RESPONSE 4
#define NICSIM_PCC_TYPE_TIMER 5

/** Java event flags (the event's nicsim_flags byte). */
#define NICSIM_PCC_FLAG_ECE 0x01
#define NICSIM_PCC_FLAG_FIRST_IN_FLOW 0x02
#define NICSIM_PCC_FLAG_BECN 0x04

/** 1.0 in 16.16; line rate as a rate. */
#define NICSIM_FXP_ONE (1 << 16)
#define NICSIM_RATE_ONE (1 << 20)
#define NICSIM_PSN_MASK 0xFFFFFFu

/** @return exact bytes sent in a TX event (Java txBytes) */
static inline uint32_t nicsim_pcc_get_tx_bytes(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_tx_bytes);
}

/** @return exact packets sent in a TX event (Java txPackets) */
static inline uint32_t nicsim_pcc_get_tx_packets(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_tx_packets);
}

/** @return the Java event flags (NICSIM_PCC_FLAG_*) */
static inline uint32_t nicsim_pcc_get_flags(const doca_pcc_dev_event_t *ev)
{
    return ev->nicsim_flags;
}

/** @return the Java event type (NICSIM_PCC_TYPE_*) */
static inline uint32_t nicsim_pcc_get_type(const doca_pcc_dev_event_t *ev)
{
    return ev->nicsim_type;
}

/** @return the number of events merged into this one, any event type */
static inline uint32_t nicsim_pcc_get_num_coalesced(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_num_coalesced);
}

/** @return the sn of the first merged event, any event type */
static inline uint32_t nicsim_pcc_get_first_sn(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_first_sn);
}

/** Flow attributes (Java PccAttributes). */
static inline uint64_t nicsim_pcc_line_rate_bps(const doca_pcc_dev_attr_t *a) { return a->line_rate_bps; }
static inline uint32_t nicsim_pcc_mtu_bytes(const doca_pcc_dev_attr_t *a) { return a->mtu_bytes; }
static inline uint32_t nicsim_pcc_base_rtt_ns(const doca_pcc_dev_attr_t *a) { return a->base_rtt_ns; }
/** @return the flow's first PSN; valid in nicsim_pcc_user_flow_init only */
static inline uint32_t nicsim_pcc_initial_psn(const doca_pcc_dev_attr_t *a) { return a->initial_psn; }
/** @return the path's bandwidth-delay product, bytes (Java PccAttributes.bdpBytes) */
static inline int64_t nicsim_pcc_bdp_bytes(const doca_pcc_dev_attr_t *a)
{
    return (int64_t)a->line_rate_bps * (int64_t)a->base_rtt_ns / 8000000000LL;
}

/** Results beyond DOCA's (Java PccResult). */
static inline void nicsim_pcc_set_window_bytes(doca_pcc_dev_results_t *r, uint64_t bytes) { r->window_bytes = bytes; }
static inline void nicsim_pcc_set_timer_ns(doca_pcc_dev_results_t *r, uint32_t ns) { r->timer_ns = ns; }
static inline void nicsim_pcc_set_fast_start_packets(doca_pcc_dev_results_t *r, uint32_t packets)
{
    r->fast_start_packets = packets;
}

/**
 * Optional, defined by the algorithm: called once per new flow on its zeroed context before its
 * first event (mailbox call NICSIM_CALL_FLOW_INIT), like Java PccAlgorithm.initFlow; attr has
 * initial_psn and now_ns set. A weak empty default is in the runtime.
 */
void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt, const doca_pcc_dev_event_t *event,
                               const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results);

/**
 * Declares how a parameter's raw value reads (NICSIM_PCC_PARAM_INTEGER or _FXP16) and its unit
 * (a NUL-terminated string kept by pointer, may be NULL). Call after doca_pcc_dev_algo_init_param.
 */
doca_pcc_dev_error_t nicsim_pcc_algo_param_info(uint32_t algo_idx, uint32_t param_id, uint32_t kind,
                                                const char *unit);

/** @return the mailbox of the calling thread (tp) */
static inline uint8_t *nicsim_pcc_mailbox(void)
{
    uint8_t *p;
    __asm__("mv %0, tp" : "=r"(p));
    return p;
}

/** Minimal formatting (the same as doca_pcc_dev_printf's) into buf, NUL-terminated. */
int nicsim_vsnprintf(char *buf, size_t size, const char *format, __builtin_va_list ap);
int nicsim_snprintf(char *buf, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

/** Writes bytes to the firmware log (ecall PRINT, falling back to write(1) under riscv run/QEMU). */
void nicsim_pcc_write(const char *buf, uint32_t len);

/** Runtime entries for test drivers: run one call on the mailbox at mb with the context ctxt. */
void nicsim_rt_event(uint8_t *mb, doca_pcc_dev_algo_ctxt_t *ctxt);
void nicsim_rt_init(uint8_t *mb);

/** Helpers mirroring Java FixedPoint/CcMath (pure). */
static inline int32_t nicsim_psn_delta(uint32_t from_psn, uint32_t to_psn)
{
    return ((int32_t)((to_psn - from_psn) << 8)) >> 8;
}

static inline int nicsim_at_or_after(uint32_t time_ns, uint32_t reference_ns)
{
    return (int32_t)(time_ns - reference_ns) >= 0;
}

#endif
