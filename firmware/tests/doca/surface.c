/*
 * surface.c - compile-only test (make check-headers, -Wall -Wextra -Werror): the DOCA PCC device
 * surface of Addendum A as public programs use it. Each line is a use found in those programs.
 */
#include <doca_pcc_dev.h>
#include <doca_pcc_dev_event.h>
#include <doca_pcc_dev_algo_access.h>
#include <doca_pcc_dev_utils.h>
#include <doca_pcc_dev_common.h>
#include <doca_pcc_dev_services.h>
#include <doca_version.h>

/* names programs define themselves: our headers must leave them undefined (a redefinition with a
 * different body would be an error under -Werror) */
#define DOCA_PCC_DEV_EVNT_ROCE_ACK_MASK (1 << DOCA_PCC_DEV_EVNT_ROCE_ACK)
#define DOCA_PCC_DEV_EVNT_ROCE_NACK_MASK (1 << DOCA_PCC_DEV_EVNT_ROCE_NACK)
#define __unused __attribute__((unused))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define UDP_HDR_SIZE (8)
#define diff_with_wrap32(a, b) ((uint32_t)((a) - (b)))

/* likely/unlikely are available */
static int hints(int x) { return likely(x) + unlikely(x); }

/* ALWAYS_INLINE is the attribute only: an ordinary external definition (A.2) */
ALWAYS_INLINE uint32_t surface_always_inline(uint32_t x);
ALWAYS_INLINE uint32_t surface_always_inline(uint32_t x) { return x + 1; }
/* FORCE_INLINE is static inline + always_inline, fine in shared headers */
FORCE_INLINE uint32_t surface_force_inline(uint32_t x) { return x * 2; }

#if DOCA_VERSION_MAJOR < 2 || DOCA_VERSION_MAJOR > 3
#error DOCA_VERSION_MAJOR must be 2 or 3
#endif
#if DOCA_VERSION_LTE_CURRENT(2, 8, 0)
#define SURFACE_HAS_FLOW_QPN 1
#endif

uint32_t surface(doca_pcc_dev_event_t *ev, const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results);
uint32_t surface(doca_pcc_dev_event_t *ev, const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t acc = (uint32_t)hints(1) + surface_always_inline(1) + surface_force_inline(2);
    /* int loop over the signed port count: no -Wsign-compare warning */
    for (int p = 0; p < DOCA_PCC_DEV_MAX_NUM_PORTS; p++) {
        acc += doca_pcc_dev_get_port_speed((uint32_t)p);
    }
#ifdef DOCA_PCC_DEV_ACK_NACK_TX_EVENT_DISABLED_SUPPORTED
    if (DOCA_PCC_DEV_ACK_NACK_TX_EVENT_DISABLED_SUPPORTED == 1) {
        acc |= 1u << DOCA_PCC_DEV_EVNT_ROCE_TX_FOR_ACK_NACK;
    }
#endif
    /* non-const raw data (A.7) */
    unsigned char *raw = doca_pcc_dev_get_rtt_raw_data(ev);
    acc += raw[0] + doca_pcc_dev_get_rtt_raw_data_size(ev);
    /* the pre-get_flow_qpn path (A.8) */
    acc += __builtin_bswap32(*(uint32_t *)((uint8_t *)&ev->ev_spec_attr.roce_tx + 8)) & 0xFFFFFF;
#ifdef SURFACE_HAS_FLOW_QPN
    acc += doca_pcc_dev_get_flow_qpn(ev);
#endif
    /* NIC counters and port queries (A.3) */
    static uint32_t ids[2], values[2];
    ids[0] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(0, DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES, 0);
#if !(DOCA_VERSION_MAJOR == 3 && DOCA_VERSION_MINOR >= 3)
    ids[1] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(0, DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES, 0);
#endif
#if DOCA_VERSION_MAJOR < 3
    ids[1] = DOCA_PCC_DEV_NIC_COUNTER_PORT0_RX_BYTES;
#endif
    doca_pcc_dev_nic_counters_config(ids, 2, values);
    doca_pcc_dev_nic_counters_sample();
    acc += doca_pcc_dev_fls(doca_pcc_dev_get_logical_ports()) + doca_pcc_dev_get_port_planes(0);
    /* timers (A.4), services, fences (A.10) */
    acc += doca_pcc_dev_get_timer_lo() + (uint32_t)doca_pcc_dev_get_timer() + (uint32_t)doca_pcc_dev_get_thread_time();
    acc += doca_pcc_dev_thread_rank();
    doca_pcc_dev_printf("%u %s\n", acc, doca_version());
    doca_pcc_dev_trace_5(1, 2, 3, 4, 5, 6);
    doca_pcc_dev_trace_flush();
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
    __dpa_thread_memory_writeback();
    doca_pcc_dev_fence_all();
    doca_pcc_dev_fence_w_r();
    /* constants named in programs (A.2) */
    acc += DOCA_PCC_DEV_LOG_MAX_RATE + DOCA_PCC_DEV_DEFAULT_RATE + DOCA_PCC_DEV_ALGO_SLOT_INTERNAL
           + DOCA_PCC_DEV_ALGO_INDEX_INTERNAL;
    if (attr->algo_slot == DOCA_PCC_DEV_ALGO_SLOT_INTERNAL) {
        results->rate = DOCA_PCC_DEV_MAX_RATE;
    }
    return acc + (uint32_t)DOCA_VERSION_EXACT;
}

void doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
    (void)portid;
}

doca_pcc_dev_error_t doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
                                                      void *response, uint32_t *response_size)
{
    (void)request;
    (void)request_size;
    (void)max_response_size;
    (void)response;
    *response_size = 0;
    return DOCA_PCC_DEV_STATUS_OK;
}
