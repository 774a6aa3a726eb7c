/*
 * dctcp.c - DCTCP sender on a RoCE window, the C port of nicsim's Java DctcpAlgorithm
 * (microcode, dev.nicsim.microcode.algorithms): same 48-byte context layout, parameters
 * (DctcpProvider's names, raw defaults, ranges), counters (same names, same order) and integer
 * arithmetic. the DCTCP draft §3.3; the Java class's javadoc explains the per-ACK steps.
 */
#include "nicsim_pcc.h"
#include "port_util.h"

enum { W_CWND_BYTES = 0, W_SSTHRESH_BYTES = 1, W_ALPHA = 2, W_ACKED_PACKETS = 3, W_MARKED_PACKETS = 4,
       W_WINDOW_END_PSN = 5, W_LAST_SENT_PSN = 6, W_CWR_END_PSN = 7, W_FLAGS = 8, W_CA_BYTES = 9 };
enum { FLAG_SENT = 1, FLAG_IN_CWR = 2 };
enum { P_G, P_INITIAL_ALPHA, P_INIT_WINDOW_BYTES, P_INIT_SSTHRESH_BYTES, P_MIN_WINDOW_PACKETS, P_MAX_WINDOW_BYTES,
       P_COUNT };
enum { C_ALPHA_UPDATES, C_ECN_REDUCTIONS, C_LOSS_REDUCTIONS, C_MARKED, C_STALE, C_COUNT };

#define MAX_WINDOW_DEFAULT (1 << 30)
#define MAX_CA_STEPS 8
#define FXP NICSIM_PCC_PARAM_FXP16
#define INT NICSIM_PCC_PARAM_INTEGER

static const struct port_param PARAMS[P_COUNT] = {
    {"g: alpha estimation gain, alpha = (1-g) alpha + g M, the DCTCP draft §3.3, §4", 4096, 1, 65536, FXP, "fraction"},
    {"initial_alpha: DCTCP.Alpha at flow start, the DCTCP draft §3.3", 65536, 0, 65536, FXP, "fraction"},
    {"init_window_bytes: initial cwnd; 0 = path BDP (the DCTCP draft is silent; a RoCE QP starts at line rate)", 0, 0,
     1u << 30, INT, "bytes"},
    {"init_ssthresh_bytes: initial ssthresh; 0 = initial cwnd (congestion avoidance from the start), RFC 5681 §3.1",
     0, 0, 1u << 30, INT, "bytes"},
    {"min_window_packets: floor of cwnd and ssthresh, RFC 5681 §3.1 (2 x SMSS)", 2, 1, 1024, INT, "packets"},
    {"max_window_bytes: ceiling of cwnd, the receiver window of RFC 5681 §2; 0 = 2^30 bytes", 0, 0, 1u << 30, INT,
     "bytes"},
};

static const char *const COUNTERS[C_COUNT] = {
    "dctcp_alpha_updates: observation windows closed (alpha updated)",
    "dctcp_ecn_reductions: cwnd reductions on ECN echoes",
    "dctcp_loss_reductions: cwnd halvings on out-of-sequence NACKs",
    "dctcp_acks_marked: ACKs with ECE",
    "dctcp_stale_acks: ACKs covering no new packet",
};

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    port_declare(0xDC7C, "dctcp: DCTCP sender on a RoCE window, the DCTCP draft §3.3 (C port of nicsim's Java handler)",
                 PARAMS, P_COUNT, COUNTERS, C_COUNT);
    *disable_event_bitmask = 0;
}

static int64_t max_window(const uint32_t *p)
{
    return p[P_MAX_WINDOW_BYTES] > 0 ? (int64_t)p[P_MAX_WINDOW_BYTES] : MAX_WINDOW_DEFAULT;
}

void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt, const doca_pcc_dev_event_t *event,
                               const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    const uint32_t *p = doca_pcc_dev_get_algo_params(event->port_num, attr->algo_slot);
    uint32_t *c = algo_ctxt->data;
    int32_t mtu = (int32_t)attr->mtu_bytes;
    int64_t min_w = (int64_t)p[P_MIN_WINDOW_PACKETS] * mtu;
    int64_t init = p[P_INIT_WINDOW_BYTES] > 0 ? (int64_t)p[P_INIT_WINDOW_BYTES] : nicsim_pcc_bdp_bytes(attr);
    int32_t cwnd = (int32_t)cc_min64(max_window(p), cc_max64(min_w, init));
    int32_t ssthresh = p[P_INIT_SSTHRESH_BYTES] > 0 ? (int32_t)cc_max64(min_w, p[P_INIT_SSTHRESH_BYTES]) : cwnd;
    c[W_CWND_BYTES] = (uint32_t)cwnd;
    c[W_SSTHRESH_BYTES] = (uint32_t)ssthresh;
    c[W_ALPHA] = p[P_INITIAL_ALPHA];
    c[W_ACKED_PACKETS] = 0;
    c[W_MARKED_PACKETS] = 0;
    c[W_WINDOW_END_PSN] = (attr->initial_psn - 1) & NICSIM_PSN_MASK;
    c[W_LAST_SENT_PSN] = 0;
    c[W_CWR_END_PSN] = 0;
    c[W_FLAGS] = 0;
    c[W_CA_BYTES] = 0;
    results->rate = NICSIM_RATE_ONE;
    nicsim_pcc_set_window_bytes(results, (uint64_t)(int64_t)cwnd);
}

/* the later of the last PSN sent (if any TX was seen) and sn */
static uint32_t last_sent(const uint32_t *c, uint32_t flags, uint32_t sn)
{
    if ((flags & FLAG_SENT) == 0) {
        return sn;
    }
    uint32_t last = c[W_LAST_SENT_PSN];
    return nicsim_psn_delta(sn, last) > 0 ? last : sn;
}

/* steps 1-2: close CWR, run the alpha estimator (the DCTCP draft §3.3 steps 1-8) */
static uint32_t acknowledge(uint32_t *c, const uint32_t *p, uint32_t *counters, uint32_t flags, uint32_t sn,
                            int32_t n, int ece)
{
    uint32_t f = flags;
    if ((f & FLAG_IN_CWR) && nicsim_psn_delta(c[W_CWR_END_PSN], sn) >= 0) {
        f &= ~(uint32_t)FLAG_IN_CWR;
    }
    int32_t acked = (int32_t)(c[W_ACKED_PACKETS] + (uint32_t)n);
    int32_t marked = (int32_t)(c[W_MARKED_PACKETS] + (ece ? (uint32_t)n : 0));
    if (nicsim_psn_delta(c[W_WINDOW_END_PSN], sn) >= 0) {
        int64_t g = (int32_t)p[P_G];
        int64_t m = ((int64_t)marked << 16) / acked;
        int64_t alpha = ((NICSIM_FXP_ONE - g) * (int64_t)(int32_t)c[W_ALPHA] + g * m) >> 16;
        c[W_ALPHA] = (uint32_t)alpha;
        c[W_WINDOW_END_PSN] = last_sent(c, f, sn);
        c[W_ACKED_PACKETS] = 0;
        c[W_MARKED_PACKETS] = 0;
        port_count(counters, C_ALPHA_UPDATES);
    } else {
        c[W_ACKED_PACKETS] = (uint32_t)acked;
        c[W_MARKED_PACKETS] = (uint32_t)marked;
    }
    return f;
}

static uint32_t open_cwr(uint32_t *c, uint32_t flags, uint32_t sn)
{
    c[W_CWR_END_PSN] = last_sent(c, flags, sn);
    c[W_CA_BYTES] = 0;
    return flags | FLAG_IN_CWR;
}

static int32_t grow(uint32_t *c, const uint32_t *p, int32_t cwnd_in, int64_t bytes_in, int32_t mtu)
{
    int64_t cwnd = cwnd_in;
    int64_t bytes = bytes_in;
    int64_t ssthresh = (int32_t)c[W_SSTHRESH_BYTES];
    if (cwnd < ssthresh) {
        int64_t ss = cc_min64(bytes, ssthresh - cwnd);
        cwnd += ss;
        bytes -= ss;
    }
    if (bytes > 0) {
        int64_t ca = (int64_t)(int32_t)c[W_CA_BYTES] + bytes;
        for (int i = 0; i < MAX_CA_STEPS && ca >= cwnd; i++) {
            ca -= cwnd;
            cwnd += mtu;
        }
        c[W_CA_BYTES] = (uint32_t)cc_min64(ca, cwnd);
    }
    return (int32_t)cc_min64(max_window(p), cwnd);
}

static void on_ack(uint32_t *c, const uint32_t *p, uint32_t *counters, const doca_pcc_dev_event_t *ev,
                   const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t sn = doca_pcc_dev_get_sn(ev) & NICSIM_PSN_MASK;
    int32_t n = nicsim_psn_delta(nicsim_pcc_get_first_sn(ev), sn) + 1;
    if (n <= 0) {
        port_count(counters, C_STALE);
        return;
    }
    int ece = (nicsim_pcc_get_flags(ev) & NICSIM_PCC_FLAG_ECE) != 0;
    if (ece) {
        port_count(counters, C_MARKED);
    }
    int32_t mtu = (int32_t)attr->mtu_bytes;
    uint32_t flags = acknowledge(c, p, counters, c[W_FLAGS], sn, n, ece);
    int32_t cwnd = (int32_t)c[W_CWND_BYTES];
    if ((flags & FLAG_IN_CWR) == 0) {
        if (ece) {
            int64_t alpha = (int32_t)c[W_ALPHA];
            int64_t min_w = (int64_t)p[P_MIN_WINDOW_PACKETS] * mtu;
            cwnd = (int32_t)cc_max64(min_w, cwnd - (((int64_t)cwnd * alpha) >> 17));
            c[W_SSTHRESH_BYTES] = (uint32_t)cwnd;
            flags = open_cwr(c, flags, sn);
            port_count(counters, C_ECN_REDUCTIONS);
        } else {
            cwnd = grow(c, p, cwnd, cc_min64(1ll << 30, (int64_t)n * mtu), mtu);
        }
        c[W_CWND_BYTES] = (uint32_t)cwnd;
    }
    c[W_FLAGS] = flags;
    nicsim_pcc_set_window_bytes(results, (uint64_t)(int64_t)cwnd);
}

static void on_nack(uint32_t *c, const uint32_t *p, uint32_t *counters, const doca_pcc_dev_event_t *ev,
                    const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    if (ev->ev_subtype != DOCA_PCC_DEV_NACK_EVNT_OOS) {
        return;
    }
    uint32_t sn = doca_pcc_dev_get_sn(ev) & NICSIM_PSN_MASK;
    int32_t newly_acked = nicsim_psn_delta(nicsim_pcc_get_first_sn(ev), sn);
    uint32_t highest_acked = (sn - 1) & NICSIM_PSN_MASK;
    uint32_t flags = c[W_FLAGS];
    if (newly_acked > 0) {
        flags = acknowledge(c, p, counters, flags, highest_acked, newly_acked,
                            (nicsim_pcc_get_flags(ev) & NICSIM_PCC_FLAG_ECE) != 0);
    }
    int32_t cwnd = (int32_t)c[W_CWND_BYTES];
    if ((flags & FLAG_IN_CWR) == 0) {
        int64_t min_w = (int64_t)p[P_MIN_WINDOW_PACKETS] * (int32_t)attr->mtu_bytes;
        cwnd = (int32_t)cc_max64(min_w, cwnd / 2);
        c[W_SSTHRESH_BYTES] = (uint32_t)cwnd;
        c[W_CWND_BYTES] = (uint32_t)cwnd;
        flags = open_cwr(c, flags, highest_acked);
        port_count(counters, C_LOSS_REDUCTIONS);
    }
    c[W_FLAGS] = flags;
    nicsim_pcc_set_window_bytes(results, (uint64_t)(int64_t)cwnd);
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t *c = algo_ctxt->data;
    uint32_t port = event->port_num;
    switch (event->ev_type) {
        case DOCA_PCC_DEV_EVNT_ROCE_TX: {
            uint32_t sn = doca_pcc_dev_get_sn(event) & NICSIM_PSN_MASK;
            uint32_t flags = c[W_FLAGS];
            if ((flags & FLAG_SENT) == 0 || nicsim_psn_delta(c[W_LAST_SENT_PSN], sn) > 0) {
                c[W_LAST_SENT_PSN] = sn;
            }
            c[W_FLAGS] = flags | FLAG_SENT;
            break;
        }
        case DOCA_PCC_DEV_EVNT_ROCE_ACK:
            on_ack(c, doca_pcc_dev_get_algo_params(port, attr->algo_slot), doca_pcc_dev_get_counters(port, attr->algo_slot),
                   event, attr, results);
            break;
        case DOCA_PCC_DEV_EVNT_ROCE_NACK:
            on_nack(c, doca_pcc_dev_get_algo_params(port, attr->algo_slot),
                    doca_pcc_dev_get_counters(port, attr->algo_slot), event, attr, results);
            break;
        default:
            break; /* CNP, RTT, TIMER: DCTCP is driven by ECN echoes on ACKs */
    }
}
