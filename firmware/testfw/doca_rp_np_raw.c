/*
 * doca_rp_np_raw.c - test RP written from Addendum A.7 as NVIDIA's RP reads an NP's telemetry (the
 * NP-RX-rate build option): the answer to a probe is the NIC-telemetry NP's 12 bytes
 * (testfw/doca_np_rx_bytes.c), read with doca_pcc_dev_get_rtt_raw_data: word 0 = the probe's send
 * time (ns), word 1 = the receiving port's RX bytes, word 2 = the NP's timer_lo (us).
 * A new flow (rate 0 in its context) asks for one probe and holds the lowest rate until the answer;
 * the answer is counted (RX bytes, NP time, RTT = arrival - raw word 0) and the flow resumes at the
 * receiver port's idle share: rate = MAX_RATE x (1 - RX bytes / 2^16), at least 1 - a reaction to the
 * remote counter that a test can derive by hand. ACK events are disabled, as the RTT template does.
 * Only DOCA names; no nicsim header.
 */
#include <doca_pcc_dev.h>

enum { CNT_RTT_EVENTS, CNT_NP_RX_BYTES, CNT_NP_TIMER_US, CNT_RTT_NS, CNT_FIRST_TX_NS, NUM_COUNTERS };

static const char desc[] = "np raw reader: rate from the receiver's RX bytes";
static const char *const counter_desc[NUM_COUNTERS] = {
    "rtt_events: RTT events handled",
    "np_rx_bytes: raw word 1 (receiver port RX bytes), summed",
    "np_timer_us: raw word 2 (NP timer_lo, us), summed",
    "rtt_ns: event time - raw word 0 (probe send time), ns, summed",
    "first_tx_ns: time of each flow's first event, ns, summed",
};

static uint32_t length(const char *s)
{
    uint32_t n = 0;
    while (s[n]) {
        n++;
    }
    return n;
}

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0x2A7,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, 0, NUM_COUNTERS);
    for (uint32_t c = 0; c < NUM_COUNTERS; c++) {
        doca_pcc_dev_algo_init_counter(0, c, UINT32_MAX, 0, length(counter_desc[c]), (uint64_t)(uintptr_t)counter_desc[c]);
    }
    for (int port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 1u << DOCA_PCC_DEV_EVNT_ROCE_ACK;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    if (attr->algo_slot != 0) {
        doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
        return;
    }
    doca_pcc_dev_event_general_attr_t ev = doca_pcc_dev_get_ev_attr(event);
    uint32_t *counters = doca_pcc_dev_get_counters(ev.port_num, attr->algo_slot);
    if (algo_ctxt->data[0] == 0) { /* a new flow: one probe, lowest rate until it is answered */
        algo_ctxt->data[0] = 1;
        results->rate = 1;
        results->rtt_req = 1;
        if (counters) {
            counters[CNT_FIRST_TX_NS] += doca_pcc_dev_get_timestamp(event);
        }
        return;
    }
    if (ev.ev_type != DOCA_PCC_DEV_EVNT_RTT) {
        results->rate = algo_ctxt->data[0];
        return;
    }
    const uint32_t *raw = (const uint32_t *)doca_pcc_dev_get_rtt_raw_data(event);
    uint32_t send_ns = raw[0];
    uint32_t rx_bytes = raw[1];
    uint32_t np_us = raw[2];
    if (counters) {
        counters[CNT_RTT_EVENTS]++;
        counters[CNT_NP_RX_BYTES] += rx_bytes;
        counters[CNT_NP_TIMER_US] += np_us;
        counters[CNT_RTT_NS] += doca_pcc_dev_get_timestamp(event) - send_ns;
    }
    uint32_t busy = rx_bytes < (1u << 16) ? rx_bytes : (1u << 16);
    uint32_t rate = (uint32_t)(((uint64_t)((1u << 16) - busy) << DOCA_PCC_DEV_LOG_MAX_RATE) >> 16);
    algo_ctxt->data[0] = rate > 0 ? rate : 1;
    results->rate = algo_ctxt->data[0];
}
