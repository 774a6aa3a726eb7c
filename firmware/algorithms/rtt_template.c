/*
 * rtt_template.c - an RTT-probe rate algorithm in the style of NVIDIA's public "RTT template"
 * description (no Java twin), written only against DOCA PCC names:
 *   - a new flow (rate 0 in its context) starts at new_flow_rate and asks for an RTT probe;
 *   - TX events: with no probe outstanding, ask for one; with one outstanding for longer than
 *     probe_timeout_ns x 2^abort_count, ask again and count the abort (at most 10 doublings);
 *   - CNP and NACK events mark the flow congested;
 *   - RTT event: rtt = event timestamp - probe send timestamp; rtt > max_delay_ns or congested:
 *     rate -= rate x update_factor (16.16), not below min_rate; else rate += ai_rate (20-bit
 *     units), not above line rate; congestion and abort count clear, the next probe is asked for;
 *   - ACK events are disabled in doca_pcc_dev_user_init.
 * Context: word 0 rate (20-bit, 0 = new flow), 1 probe send time (ns), 2 flags (bit 0 probe
 * outstanding, bit 1 congested), 3 abort count, 4 last RTT (ns; base_rtt_ns before the first).
 */
#include <doca_pcc_dev.h>
#include <doca_pcc_dev_event.h>
#include <doca_pcc_dev_algo_access.h>
#include <doca_pcc_dev_utils.h>

enum { W_RATE = 0, W_PROBE_SEND_NS = 1, W_FLAGS = 2, W_ABORTS = 3, W_LAST_RTT_NS = 4 };
enum { F_PROBE_OUTSTANDING = 1, F_CONGESTED = 2 };
enum { P_UPDATE_FACTOR, P_AI_RATE, P_MAX_DELAY_NS, P_BASE_RTT_NS, P_MIN_RATE, P_NEW_FLOW_RATE, P_PROBE_TIMEOUT_NS,
       P_NUM };
enum { C_RTT_EVENTS, C_DECREASES, C_INCREASES, C_CNPS, C_NACKS, C_PROBE_TIMEOUTS, C_NUM };

#define MAX_ABORT_DOUBLINGS 10

static const char ALGO_DESC[] = "rtt_template: RTT-probe AIMD (nicsim's own, after NVIDIA's public RTT template)";

struct param_decl {
    const char *desc;
    uint32_t def, min, max;
};

static const struct param_decl PARAMS[P_NUM] = {
    {"update_factor: multiplicative decrease, 16.16 fraction (0.1)", 6554, 1, 65536},
    {"ai_rate: additive increase, 20-bit fraction of line rate (5 %)", 52428, 1, DOCA_PCC_DEV_MAX_RATE},
    {"max_delay_ns: RTT above this is congestion", 150000, 1, 1u << 30},
    {"base_rtt_ns: RTT assumed before the first measurement", 13000, 1, 1u << 30},
    {"min_rate: lowest rate, 20-bit fraction of line rate", 64, 1, DOCA_PCC_DEV_MAX_RATE},
    {"new_flow_rate: a new flow's rate, 20-bit fraction of line rate", DOCA_PCC_DEV_MAX_RATE, 1,
     DOCA_PCC_DEV_MAX_RATE},
    {"probe_timeout_ns: re-ask for a probe after this long x 2^aborts", 300000, 1, 1u << 30},
};

static const char *const COUNTERS[C_NUM] = {
    "rtt_events: RTT responses handled",
    "rate_decreases: multiplicative decreases",
    "rate_increases: additive increases",
    "cnp_events: CNPs seen",
    "nack_events: NACKs seen",
    "probe_timeouts: probes re-asked for after a timeout",
};

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0xA77,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(ALGO_DESC),
        .algo_desc_addr = (uint64_t)(uintptr_t)ALGO_DESC,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, P_NUM, C_NUM);
    for (uint32_t i = 0; i < P_NUM; i++) {
        doca_pcc_dev_algo_init_param(0, i, PARAMS[i].def, PARAMS[i].max, PARAMS[i].min, 1, 0xFFFF,
                                     (uint64_t)(uintptr_t)PARAMS[i].desc);
    }
    for (uint32_t i = 0; i < C_NUM; i++) {
        doca_pcc_dev_algo_init_counter(0, i, 0xFFFFFFFFu, 0, 0xFFFF, (uint64_t)(uintptr_t)COUNTERS[i]);
    }
    for (uint32_t port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 1u << DOCA_PCC_DEV_EVNT_ROCE_ACK;
}

static void count(uint32_t *counters, uint32_t id)
{
    if (counters != NULL) {
        counters[id]++;
    }
}

static void ask_probe(uint32_t *ctx, uint32_t now, doca_pcc_dev_results_t *results)
{
    ctx[W_PROBE_SEND_NS] = now;
    ctx[W_FLAGS] |= F_PROBE_OUTSTANDING;
    results->rtt_req = 1;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t *ctx = algo_ctxt->data;
    doca_pcc_dev_event_general_attr_t ev = doca_pcc_dev_get_ev_attr(event);
    const uint32_t *p = doca_pcc_dev_get_algo_params(ev.port_num, attr->algo_slot);
    uint32_t *counters = doca_pcc_dev_get_counters(ev.port_num, attr->algo_slot);
    uint32_t now = doca_pcc_dev_get_timestamp(event);

    if (unlikely(ctx[W_RATE] == 0)) {
        ctx[W_RATE] = p[P_NEW_FLOW_RATE];
        ctx[W_FLAGS] = 0;
        ctx[W_ABORTS] = 0;
        ctx[W_LAST_RTT_NS] = p[P_BASE_RTT_NS];
        ask_probe(ctx, now, results);
        results->rate = ctx[W_RATE];
        return;
    }
    switch (ev.ev_type) {
        case DOCA_PCC_DEV_EVNT_ROCE_TX:
            if ((ctx[W_FLAGS] & F_PROBE_OUTSTANDING) == 0) {
                ask_probe(ctx, now, results);
            } else if (now - ctx[W_PROBE_SEND_NS] > (p[P_PROBE_TIMEOUT_NS] << ctx[W_ABORTS])) {
                count(counters, C_PROBE_TIMEOUTS);
                if (ctx[W_ABORTS] < MAX_ABORT_DOUBLINGS) {
                    ctx[W_ABORTS]++;
                }
                ask_probe(ctx, now, results);
            }
            break;
        case DOCA_PCC_DEV_EVNT_ROCE_CNP:
            count(counters, C_CNPS);
            ctx[W_FLAGS] |= F_CONGESTED;
            break;
        case DOCA_PCC_DEV_EVNT_ROCE_NACK:
            count(counters, C_NACKS);
            ctx[W_FLAGS] |= F_CONGESTED;
            break;
        case DOCA_PCC_DEV_EVNT_RTT: {
            count(counters, C_RTT_EVENTS);
            uint32_t rtt = now - doca_pcc_dev_get_rtt_req_send_timestamp(event);
            uint32_t rate = ctx[W_RATE];
            ctx[W_LAST_RTT_NS] = rtt;
            if (rtt > p[P_MAX_DELAY_NS] || (ctx[W_FLAGS] & F_CONGESTED)) {
                count(counters, C_DECREASES);
                rate -= doca_pcc_dev_fxp_mult(rate, p[P_UPDATE_FACTOR]);
                if (rate < p[P_MIN_RATE]) {
                    rate = p[P_MIN_RATE];
                }
            } else {
                count(counters, C_INCREASES);
                rate += p[P_AI_RATE];
                if (rate > DOCA_PCC_DEV_MAX_RATE) {
                    rate = DOCA_PCC_DEV_MAX_RATE;
                }
            }
            ctx[W_RATE] = rate;
            ctx[W_FLAGS] &= ~(uint32_t)F_CONGESTED;
            ctx[W_ABORTS] = 0;
            ask_probe(ctx, now, results);
            break;
        }
        default:
            break;
    }
    results->rate = ctx[W_RATE];
}
