/*
 * ldcp_pcc.c - LDCP in its rate form for PCC NICs (the LDCP draft §3.2), the C port of nicsim's Java
 * LdcpPccAlgorithm (microcode, dev.nicsim.microcode.algorithms): same context layout,
 * parameters (LdcpPccProvider's names, raw defaults, ranges), counters (same names, same
 * order) and integer arithmetic.
 */
#include "nicsim_pcc.h"
#include "port_util.h"

enum { W_WINDOW = 0, W_SRTT_NS = 1, W_FLAGS = 2, W_PROBE_REQUEST_NS = 3 };
enum { FLAG_RTT_SAMPLED = 1 };
enum { P_ALPHA, P_BETA, P_MIN_WINDOW, P_INIT_WINDOW_BYTES, P_RTT_GAIN, P_PROBE_TIMEOUT_NS, P_COUNT };
enum { C_RESPONSES, C_STALE, C_CNPS, C_TIMEOUTS, C_COUNT };

#define FXP NICSIM_PCC_PARAM_FXP16
#define INT NICSIM_PCC_PARAM_INTEGER

static const struct port_param PARAMS[P_COUNT] = {
    {"alpha: window increase per RTT response (AI), the LDCP draft §3.2", 65536, 1, 16u << 16, FXP, "packets"},
    {"beta: window decrease per CNP (MD), the LDCP draft §3.2", 32768, 1, 16u << 16, FXP, "packets"},
    {"min_window: smallest window, the LDCP draft §2.2 (gamma) applied to §3.2", 8192, 64, 1024u << 16, FXP, "packets"},
    {"init_window_bytes: initial window; 0 = path BDP (start at line rate), the LDCP draft §2.3", 0, 0, 1u << 30, INT,
     "bytes"},
    {"rtt_gain: EWMA gain of probe RTT samples; 1 = latest sample, the LDCP draft §3.2", 65536, 1, 65536, FXP, "fraction"},
    {"probe_timeout_ns: send the next RTT probe after this long without a response; 0 = never, the LDCP draft §3.2",
     1000000, 0, 1u << 30, INT, "ns"},
};

static const char *const COUNTERS[C_COUNT] = {
    "ldcp_pcc_rtt_responses: RTT responses used",
    "ldcp_pcc_stale_responses: RTT responses older than the latest probe",
    "ldcp_pcc_cnps: CNPs",
    "ldcp_pcc_probe_timeouts: probes re-sent after a timeout",
};

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    port_declare(0x1DCC, "ldcp-pcc: LDCP rate form for PCC NICs, the LDCP draft §3.2 (C port of nicsim's Java handler)",
                 PARAMS, P_COUNT, COUNTERS, C_COUNT);
    *disable_event_bitmask = 0;
}

static void probe(uint32_t *c, const uint32_t *p, uint32_t now_ns, doca_pcc_dev_results_t *results)
{
    c[W_PROBE_REQUEST_NS] = now_ns;
    results->rtt_req = 1;
    if ((int32_t)p[P_PROBE_TIMEOUT_NS] > 0) {
        nicsim_pcc_set_timer_ns(results, p[P_PROBE_TIMEOUT_NS]);
    }
}

static void publish_rate(const uint32_t *c, int32_t w, const doca_pcc_dev_attr_t *attr,
                         doca_pcc_dev_results_t *results)
{
    cc_set_rate(results, cc_rate_for_window(w, (int32_t)attr->mtu_bytes, (int32_t)c[W_SRTT_NS], attr->line_rate_bps));
}

void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt, const doca_pcc_dev_event_t *event,
                               const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    const uint32_t *p = doca_pcc_dev_get_algo_params(event->port_num, attr->algo_slot);
    uint32_t *c = algo_ctxt->data;
    int64_t bytes = p[P_INIT_WINDOW_BYTES] > 0 ? (int64_t)p[P_INIT_WINDOW_BYTES] : nicsim_pcc_bdp_bytes(attr);
    int32_t w = cc_max32((int32_t)p[P_MIN_WINDOW], cc_packets_fixed(bytes, (int32_t)attr->mtu_bytes));
    c[W_WINDOW] = (uint32_t)w;
    c[W_SRTT_NS] = attr->base_rtt_ns;
    c[W_FLAGS] = 0;
    nicsim_pcc_set_window_bytes(results, NICSIM_PCC_WINDOW_UNLIMITED);
    probe(c, p, attr->now_ns, results);
    publish_rate(c, w, attr, results);
}

static void on_rtt_response(uint32_t *c, const uint32_t *p, uint32_t *counters, const doca_pcc_dev_event_t *ev,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t req_send = doca_pcc_dev_get_rtt_req_send_timestamp(ev);
    if (!nicsim_at_or_after(req_send, c[W_PROBE_REQUEST_NS])) {
        port_count(counters, C_STALE);
        return;
    }
    port_count(counters, C_RESPONSES);
    uint32_t ts = doca_pcc_dev_get_timestamp(ev);
    int32_t sample = (int32_t)((ts - req_send)
                               - (doca_pcc_dev_get_rtt_resp_send_timestamp(ev) - doca_pcc_dev_get_rtt_req_recv_timestamp(ev)));
    if (sample > 0) {
        uint32_t flags = c[W_FLAGS];
        if ((flags & FLAG_RTT_SAMPLED) == 0) {
            c[W_FLAGS] = flags | FLAG_RTT_SAMPLED;
            c[W_SRTT_NS] = (uint32_t)sample;
        } else {
            c[W_SRTT_NS] = (uint32_t)cc_ewma_ns((int32_t)c[W_SRTT_NS], sample, (int32_t)p[P_RTT_GAIN]);
        }
    }
    int32_t cap = cc_max32((int32_t)p[P_MIN_WINDOW],
                           cc_line_window_fixed((int32_t)attr->mtu_bytes, (int32_t)c[W_SRTT_NS], attr->line_rate_bps));
    int32_t w = (int32_t)cc_min64(cap, (int64_t)(int32_t)c[W_WINDOW] + (int32_t)p[P_ALPHA]);
    c[W_WINDOW] = (uint32_t)w;
    probe(c, p, ts, results);
    publish_rate(c, w, attr, results);
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t *c = algo_ctxt->data;
    uint32_t port = event->port_num;
    const uint32_t *p = doca_pcc_dev_get_algo_params(port, attr->algo_slot);
    uint32_t *counters = doca_pcc_dev_get_counters(port, attr->algo_slot);
    switch (event->ev_type) {
        case DOCA_PCC_DEV_EVNT_RTT:
            on_rtt_response(c, p, counters, event, attr, results);
            break;
        case DOCA_PCC_DEV_EVNT_ROCE_CNP: {
            port_count(counters, C_CNPS);
            int32_t w = cc_max32((int32_t)p[P_MIN_WINDOW], (int32_t)(c[W_WINDOW] - p[P_BETA]));
            c[W_WINDOW] = (uint32_t)w;
            publish_rate(c, w, attr, results);
            break;
        }
        case NICSIM_PCC_EVNT_TIMER: {
            uint32_t ts = doca_pcc_dev_get_timestamp(event);
            int32_t timeout = (int32_t)p[P_PROBE_TIMEOUT_NS];
            if (timeout > 0 && (int32_t)(ts - c[W_PROBE_REQUEST_NS]) >= timeout) {
                port_count(counters, C_TIMEOUTS);
                probe(c, p, ts, results);
            }
            break;
        }
        default:
            break; /* TX, ACK, NACK: standard RoCE ACKs do not drive this form */
    }
}
