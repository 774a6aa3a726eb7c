/*
 * doca_rp_ifa2.c - test RP written from Addendum B.6/B.7 of the DOCA PCC fact sheet (what NVIDIA's
 * switch-telemetry RP, the "telem template", does), not from NVIDIA's source.
 *
 * Registration (B.7): algorithm 0xBFFF v0.1, 8 parameters declared but only 0-5 registered (update
 * factor 6553, AI 40, base qlen 13000, new-flow rate 2^20, min rate 64, max delay 150000), so 6 (HAI) and
 * 7 (port bandwidth) read what the platform gives undeclared parameters; ACK events disabled. Counters:
 * TX events and RTT events (NVIDIA's two), and, for tests, q, B and T as read from the first RTT event
 * of the NIC.
 * Context words: 0 rate; 1 last B; 2 last T; 3 byte 0 flags (bit 0 was_nack, bit 1 was_cnp, bits 4-2 the
 * request counter), byte 1 abort count, byte 2 "probe sent" mark; 4 start time (ns).
 * Events (B.7): a zero rate starts the flow (rate p3, a probe); TX arms on RTT_REQ_SENT or counts, and
 * re-asks after 300 us << aborts or after a third TX event; RTT reads the raw data as NVIDIA's RP does
 * (B.6: native little-endian loads, no byte swap: qlen = byte0 | byte1 << 8, B = LE u32 at 4, T = LE u32
 * at 8), treats B and T as running counters, and cuts the rate by (65536 - p0) / 65536 when qlen x 256
 * exceeds p2, else adds p6 below 0.8 of the normalised rate, else p1; clamps to [p4, 2^20]; asks for the
 * next probe. CNP and NACK only mark the flow. Only DOCA names; no nicsim header.
 */
#include <doca_pcc_dev.h>

enum { P_UPDATE_FACTOR, P_AI, P_BASE_QLEN, P_NEW_FLOW_RATE, P_MIN_RATE, P_MAX_DELAY, P_HAI, P_PORT_BW_G, NUM_PARAMS };
enum { CNT_TX, CNT_RTT, CNT_FIRST_Q, CNT_FIRST_B, CNT_FIRST_T, NUM_COUNTERS };

#define REGISTERED_PARAMS 6u
#define ABORT_TIME_NS 300000u
#define UTIL_THRESHOLD 52428u /* 0.8 in 16.16 */

static uint32_t first_rtt_seen;
static const char desc[] = "ifa2 telemetry RP (Addendum B.7)";
static const char *const param_desc[REGISTERED_PARAMS] = {
    "update_factor: rate decrease factor, 16.16",
    "ai: additive increase, 20-bit rate units",
    "base_qlen: queue threshold, bytes",
    "new_flow_rate: start rate, 20-bit rate units",
    "min_rate: rate floor, 20-bit rate units",
    "max_delay: unused, ns",
};
static const uint32_t param_default[REGISTERED_PARAMS] = {6553, 40, 13000, 1u << 20, 64, 150000};
static const uint32_t param_max[REGISTERED_PARAMS] = {655360, 1u << 20, 0xFFFFFFFFu, 1u << 20, 1u << 20, 0xFFFFFFFFu};
static const char *const counter_desc[NUM_COUNTERS] = {
    "tx_events: TX events after the flow's first event",
    "rtt_events: RTT events",
    "first_rtt_q: queue length as read from the first RTT event (B.6)",
    "first_rtt_b: byte counter as read from the first RTT event (B.6)",
    "first_rtt_t: time counter as read from the first RTT event (B.6)",
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
        .algo_id = 0xBFFF,
        .algo_major_version = 0,
        .algo_minor_version = 1,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, NUM_PARAMS, NUM_COUNTERS);
    for (uint32_t p = 0; p < REGISTERED_PARAMS; p++) {
        doca_pcc_dev_algo_init_param(0, p, param_default[p], param_max[p], 1, 1, length(param_desc[p]),
                                     (uint64_t)(uintptr_t)param_desc[p]);
    }
    for (uint32_t c = 0; c < NUM_COUNTERS; c++) {
        doca_pcc_dev_algo_init_counter(0, c, UINT32_MAX, 1, length(counter_desc[c]), (uint64_t)(uintptr_t)counter_desc[c]);
    }
    for (int port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 1u << DOCA_PCC_DEV_EVNT_ROCE_ACK;
}

static uint32_t le32_at(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* new - old mod 2^32, one less when the new value is below the old (B.7: the code adds 0xFFFFFFFF) */
static uint32_t delta(uint32_t now, uint32_t old)
{
    return now >= old ? now - old : now - old - 1u;
}

#define FLAGS(c) ((c)->data[3] & 0xFFu)
#define COUNTER(c) ((FLAGS(c) >> 2) & 7u)
#define ABORTS(c) (((c)->data[3] >> 8) & 0xFFu)
#define SENT(c) (((c)->data[3] >> 16) & 0xFFu)

static void set_state(doca_pcc_dev_algo_ctxt_t *c, uint32_t flags, uint32_t counter, uint32_t aborts, uint32_t sent)
{
    c->data[3] = ((flags & 3u) | (counter & 7u) << 2) | (aborts & 0xFFu) << 8 | (sent & 0xFFu) << 16;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *ctx, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    if (attr->algo_slot != 0) {
        doca_pcc_dev_default_internal_algo(ctx, event, attr, results);
        return;
    }
    const doca_pcc_dev_event_general_attr_t ev = doca_pcc_dev_get_ev_attr(event);
    const uint32_t *p = doca_pcc_dev_get_algo_params(ev.port_num, attr->algo_slot);
    uint32_t *counters = doca_pcc_dev_get_counters(ev.port_num, attr->algo_slot);
    const uint32_t now = doca_pcc_dev_get_timestamp(event);
    uint32_t flags = FLAGS(ctx) & 3u;
    uint32_t counter = COUNTER(ctx);
    uint32_t aborts = ABORTS(ctx);
    uint32_t sent = SENT(ctx);
    if (ctx->data[0] == 0) { /* a new flow */
        ctx->data[0] = p[P_NEW_FLOW_RATE];
        ctx->data[4] = now;
        set_state(ctx, flags & ~1u, 1, 0, 0);
        results->rate = ctx->data[0];
        results->rtt_req = 1;
        return;
    }
    uint32_t rate = ctx->data[0];
    if (ev.ev_type == DOCA_PCC_DEV_EVNT_ROCE_TX) {
        if (counters) {
            counters[CNT_TX]++;
        }
        results->rtt_req = 0;
        if ((ev.flags & DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT) && sent == 0) {
            sent = 1;
            counter = 0;
            ctx->data[4] = now;
        } else {
            uint32_t elapsed = delta(now, ctx->data[4]);
            if (sent == 0) {
                elapsed = 0;
                counter++;
            }
            const uint32_t timeout = elapsed > (ABORT_TIME_NS << aborts);
            if (timeout || counter > 2) {
                results->rtt_req = 1;
                counter = 1;
                if (timeout) {
                    aborts++;
                }
            }
        }
        set_state(ctx, flags, counter, aborts, sent);
        results->rate = rate;
        return;
    }
    if (ev.ev_type == DOCA_PCC_DEV_EVNT_RTT) {
        if (counters) {
            counters[CNT_RTT]++;
        }
        if (sent == 0 && counter == 0) {
            results->rate = rate;
            results->rtt_req = 0;
            return;
        }
        const unsigned char *raw = doca_pcc_dev_get_rtt_raw_data(event);
        const uint32_t q = (uint32_t)raw[0] | (uint32_t)raw[1] << 8;
        const uint32_t b = le32_at(raw + 4);
        const uint32_t t = le32_at(raw + 8);
        if (counters && !first_rtt_seen) { /* once per NIC: counter rows are per thread and summed */
            first_rtt_seen = 1;
            counters[CNT_FIRST_Q] = q;
            counters[CNT_FIRST_B] = b;
            counters[CNT_FIRST_T] = t;
        }
        const uint32_t db = delta(b, ctx->data[1]);
        const uint32_t dt = delta(t, ctx->data[2]);
        ctx->data[1] = b;
        ctx->data[2] = t;
        const uint32_t r = doca_pcc_dev_fxp_mult(db >> 8, doca_pcc_dev_fxp_recip(dt)) << 8;
        uint64_t norm = ((uint64_t)r * doca_pcc_dev_fxp_recip(p[P_PORT_BW_G] >> 3)) >> 32;
        if (norm > 65536u) {
            norm = 65536u;
        }
        if ((q << 8) > p[P_BASE_QLEN]) {
            rate = (uint32_t)(((uint64_t)rate * (65536u - p[P_UPDATE_FACTOR])) >> 16);
        } else if (norm < UTIL_THRESHOLD) {
            rate += p[P_HAI];
        } else {
            rate += p[P_AI];
        }
        if (rate > DOCA_PCC_DEV_MAX_RATE) {
            rate = DOCA_PCC_DEV_MAX_RATE;
        }
        if (rate < p[P_MIN_RATE]) {
            rate = p[P_MIN_RATE];
        }
        ctx->data[0] = rate;
        set_state(ctx, flags, 1, 0, 0);
        results->rate = rate;
        results->rtt_req = 1;
        return;
    }
    if (ev.ev_type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        set_state(ctx, flags | 2u, counter, aborts, sent);
        results->rtt_req = 0;
    } else if (ev.ev_type == DOCA_PCC_DEV_EVNT_ROCE_NACK) {
        set_state(ctx, flags | 1u, counter, aborts, sent);
    } else {
        results->rtt_req = 0;
    }
    results->rate = rate;
}
