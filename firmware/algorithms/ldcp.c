/*
 * ldcp.c - LDCP in its uNIC window form (the LDCP draft §2.2, §2.3, §3.1), the C port of nicsim's
 * Java LdcpAlgorithm (microcode, dev.nicsim.microcode.algorithms): same context layout (word 4
 * keeps the flow's first PSN), parameters (LdcpProvider's names, raw defaults, ranges),
 * counters (same names, same order) and integer arithmetic.
 */
#include "nicsim_pcc.h"
#include "port_util.h"

enum { W_FLAGS = 0, W_CW = 1, W_SRTT_NS = 2, W_IW_PACKETS = 3, W_FIRST_PSN = 4 };
enum { FLAG_STABLE = 1, FLAG_RTT_SAMPLED = 2 };
enum { P_ALPHA, P_BETA, P_GAMMA, P_ETA, P_IW_BYTES, P_RTT_GAIN, P_COUNT };
enum { C_UNMARKED, C_MARKED, C_BELOW_ONE, C_EXIT_LOSS, C_EXIT_IW, C_NACKS, C_RTT_SAMPLES, C_STALE, C_COUNT };

#define MAX_ETA_STEPS 64
#define FXP NICSIM_PCC_PARAM_FXP16
#define INT NICSIM_PCC_PARAM_INTEGER

static const struct port_param PARAMS[P_COUNT] = {
    {"alpha: additive increase per RTT: unmarked ACK for n packets adds n*alpha/cw, the LDCP draft §2.2 Eq. (1), (2)",
     65536, 1, 65536, FXP, "packets"},
    {"beta: decrease per marked packet: marked ACK for n packets removes n*beta, the LDCP draft §2.2 Eq. (1), (2)", 32768,
     1, 65536, FXP, "packets"},
    {"gamma: below one packet: increase per unmarked ACK and minimum window, the LDCP draft §2.2", 8192, 64, 32768, FXP,
     "packets"},
    {"eta: below one packet: cw = max(gamma, eta*cw) per marked packet, the LDCP draft §2.2", 32768, 4096, 61440, FXP,
     "fraction"},
    {"iw_bytes: fast-start initial window; 0 = path BDP, the LDCP draft §2.3, §3.1", 0, 0, 1u << 30, INT, "bytes"},
    {"rtt_gain: EWMA gain of RTT samples from ACK echoes (1 = latest sample; base RTT before the first) for the RTT/cw tick, the LDCP draft §2.2",
     8192, 1, 65536, FXP, "fraction"},
};

static const char *const COUNTERS[C_COUNT] = {
    "ldcp_acks_unmarked: PAWA steps on unmarked ACKs",
    "ldcp_acks_marked: PAWA steps on marked ACKs",
    "ldcp_acks_below_one: PAWA steps with cw below one packet",
    "ldcp_fast_start_exit_loss: fast starts ended by a loss",
    "ldcp_fast_start_exit_iw: fast starts ended by IW acknowledged",
    "ldcp_nacks: NACKs",
    "ldcp_rtt_samples: RTT samples taken",
    "ldcp_stale_acks: ACKs covering no new packet",
};

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    port_declare(0x1DC9, "ldcp: LDCP uNIC window form, the LDCP draft §2.2, §2.3, §3.1 (C port of nicsim's Java handler)",
                 PARAMS, P_COUNT, COUNTERS, C_COUNT);
    *disable_event_bitmask = 0;
}

void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt, const doca_pcc_dev_event_t *event,
                               const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    const uint32_t *p = doca_pcc_dev_get_algo_params(event->port_num, attr->algo_slot);
    uint32_t *c = algo_ctxt->data;
    int64_t mtu = (int32_t)attr->mtu_bytes;
    int64_t iw = p[P_IW_BYTES] > 0 ? (int64_t)p[P_IW_BYTES] : nicsim_pcc_bdp_bytes(attr);
    int32_t iw_packets = (int32_t)cc_max64(1, cc_min64(32767, (iw + mtu - 1) / mtu));
    c[W_FLAGS] = 0;
    c[W_CW] = (uint32_t)iw_packets << 16;
    c[W_SRTT_NS] = attr->base_rtt_ns;
    c[W_IW_PACKETS] = (uint32_t)iw_packets;
    c[W_FIRST_PSN] = attr->initial_psn;
    results->rate = NICSIM_RATE_ONE;
    nicsim_pcc_set_window_bytes(results, (uint64_t)((int64_t)iw_packets * mtu));
    nicsim_pcc_set_fast_start_packets(results, (uint32_t)iw_packets);
}

static void sample_rtt(uint32_t *c, const uint32_t *p, uint32_t *counters, int32_t sample_ns)
{
    if (sample_ns <= 0) {
        return;
    }
    port_count(counters, C_RTT_SAMPLES);
    uint32_t flags = c[W_FLAGS];
    if ((flags & FLAG_RTT_SAMPLED) == 0) {
        c[W_FLAGS] = flags | FLAG_RTT_SAMPLED;
        c[W_SRTT_NS] = (uint32_t)sample_ns;
    } else {
        c[W_SRTT_NS] = (uint32_t)cc_ewma_ns((int32_t)c[W_SRTT_NS], sample_ns, (int32_t)p[P_RTT_GAIN]);
    }
}

/* PAWA, the LDCP draft §2.2 Eq. (1), (2) and the rule for cw below one packet */
static int32_t pawa(const uint32_t *p, uint32_t *counters, int32_t cw, int32_t n, int ece)
{
    int32_t gamma = (int32_t)p[P_GAMMA];
    port_count(counters, ece ? C_MARKED : C_UNMARKED);
    if (cw >= NICSIM_FXP_ONE) {
        if (ece) {
            int64_t w = cw - (int64_t)n * (int32_t)p[P_BETA];
            return w < gamma ? gamma : (int32_t)w;
        }
        int64_t w = cw + (((int64_t)n * (int32_t)p[P_ALPHA]) << 16) / cw;
        return (int32_t)cc_min64(CC_MAX_WINDOW_PACKETS_FIXED, w);
    }
    port_count(counters, C_BELOW_ONE);
    if (ece) {
        int32_t w = cw;
        int32_t steps = cc_min32(n, MAX_ETA_STEPS);
        for (int32_t i = 0; i < steps && w > gamma; i++) {
            w = cc_fxp_mul(w, (int32_t)p[P_ETA]);
        }
        return cc_max32(gamma, w);
    }
    return (int32_t)cc_min64(CC_MAX_WINDOW_PACKETS_FIXED, cw + (int64_t)n * gamma);
}

static void publish(const uint32_t *c, int32_t cw, const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    int32_t mtu = (int32_t)attr->mtu_bytes;
    if (cw >= NICSIM_FXP_ONE) {
        nicsim_pcc_set_window_bytes(results, (uint64_t)cc_window_bytes(cw, mtu));
        results->rate = NICSIM_RATE_ONE;
    } else {
        nicsim_pcc_set_window_bytes(results, (uint64_t)(int64_t)mtu);
        cc_set_rate(results, cc_rate_for_window(cw, mtu, (int32_t)c[W_SRTT_NS], attr->line_rate_bps));
    }
}

static void on_ack(uint32_t *c, const uint32_t *p, uint32_t *counters, const doca_pcc_dev_event_t *ev,
                   const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t sn = doca_pcc_dev_get_sn(ev);
    int32_t n = nicsim_psn_delta(nicsim_pcc_get_first_sn(ev), sn) + 1;
    if (n <= 0) {
        port_count(counters, C_STALE);
        return;
    }
    uint32_t echo = doca_pcc_dev_get_rtt_req_send_timestamp(ev);
    if (echo != 0) {
        sample_rtt(c, p, counters, (int32_t)(doca_pcc_dev_get_timestamp(ev) - echo));
    }
    int ece = (nicsim_pcc_get_flags(ev) & NICSIM_PCC_FLAG_ECE) != 0;
    uint32_t flags = c[W_FLAGS];
    int32_t cw;
    if ((flags & FLAG_STABLE) == 0) {
        int32_t iw_packets = (int32_t)c[W_IW_PACKETS];
        int32_t acked = nicsim_psn_delta(c[W_FIRST_PSN], sn) + 1;
        if (acked < iw_packets) {
            return; /* still in fast start: the window stays IW */
        }
        port_count(counters, C_EXIT_IW);
        c[W_FLAGS] = flags | FLAG_STABLE;
        cw = cc_max32((int32_t)p[P_GAMMA], cc_packets_fixed(nicsim_pcc_bdp_bytes(attr), (int32_t)attr->mtu_bytes));
        int32_t beyond = cc_min32(n, acked - iw_packets);
        if (beyond > 0) {
            cw = pawa(p, counters, cw, beyond, ece);
        }
        nicsim_pcc_set_fast_start_packets(results, 0);
    } else {
        cw = pawa(p, counters, (int32_t)c[W_CW], n, ece);
    }
    c[W_CW] = (uint32_t)cw;
    publish(c, cw, attr, results);
}

static void on_nack(uint32_t *c, const uint32_t *p, uint32_t *counters, const doca_pcc_dev_event_t *ev,
                    const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    port_count(counters, C_NACKS);
    if (ev->ev_subtype != DOCA_PCC_DEV_NACK_EVNT_OOS) {
        return; /* RNR and duplicate-read NAKs are not congestion signals */
    }
    uint32_t flags = c[W_FLAGS];
    int32_t cw;
    if ((flags & FLAG_STABLE) == 0) {
        int32_t acked = nicsim_psn_delta(c[W_FIRST_PSN], doca_pcc_dev_get_sn(ev));
        cw = (int32_t)cc_min64(CC_MAX_WINDOW_PACKETS_FIXED, (int64_t)cc_max32(1, acked) << 16);
        c[W_FLAGS] = flags | FLAG_STABLE;
        port_count(counters, C_EXIT_LOSS);
        nicsim_pcc_set_fast_start_packets(results, 0);
    } else {
        cw = pawa(p, counters, (int32_t)c[W_CW], 1, 1);
    }
    c[W_CW] = (uint32_t)cw;
    publish(c, cw, attr, results);
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t *c = algo_ctxt->data;
    uint32_t port = event->port_num;
    const uint32_t *p = doca_pcc_dev_get_algo_params(port, attr->algo_slot);
    uint32_t *counters = doca_pcc_dev_get_counters(port, attr->algo_slot);
    switch (event->ev_type) {
        case DOCA_PCC_DEV_EVNT_ROCE_ACK:
            on_ack(c, p, counters, event, attr, results);
            break;
        case DOCA_PCC_DEV_EVNT_ROCE_NACK:
            on_nack(c, p, counters, event, attr, results);
            break;
        case DOCA_PCC_DEV_EVNT_RTT: {
            uint32_t ts = doca_pcc_dev_get_timestamp(event);
            int32_t sample = (int32_t)((ts - doca_pcc_dev_get_rtt_req_send_timestamp(event))
                                       - (doca_pcc_dev_get_rtt_resp_send_timestamp(event)
                                          - doca_pcc_dev_get_rtt_req_recv_timestamp(event)));
            sample_rtt(c, p, counters, sample);
            break;
        }
        default:
            break; /* TX, CNP and TIMER do not drive the uNIC form */
    }
}
