/*
 * dcqcn.c - DCQCN reaction point, the C port of nicsim's Java DcqcnAlgorithm (microcode,
 * dev.nicsim.microcode.algorithms): same 48-byte context layout, parameters (names, raw
 * defaults and ranges of DcqcnProvider), counters (same names, same order) and integer
 * arithmetic, so both give identical results for identical events. the RoCE ECN/DCQCN article §7; the Java
 * class's javadoc explains the state machine.
 */
#include "nicsim_pcc.h"
#include "port_util.h"

/* context words (DcqcnAlgorithm.W_*) */
enum { W_FLAGS = 0, W_RC_KBPS = 1, W_RT_KBPS = 2, W_ALPHA = 3, W_NEXT_ALPHA_NS = 4, W_NEXT_DECREASE_NS = 5,
       W_NEXT_INCREASE_NS = 6, W_STAGES = 7, W_BYTE_COUNTER = 8 };
enum { FLAG_ACTIVE = 1, FLAG_ALPHA_CNP = 2, FLAG_DECREASE_PENDING = 4, FLAG_INCREASING = 8 };
/* parameter ids (DcqcnProvider) */
enum { P_G, P_INITIAL_ALPHA, P_ALPHA_UPDATE_PERIOD_NS, P_RATE_REDUCE_MONITOR_PERIOD_NS, P_RATE_ON_FIRST_CNP,
       P_RPG_GD, P_RPG_MIN_DEC_FAC, P_RPG_MIN_RATE_MBPS, P_RPG_TIME_RESET_NS, P_RPG_BYTE_RESET_BYTES,
       P_RPG_THRESHOLD, P_RPG_AI_RATE_MBPS, P_RPG_HAI_RATE_MBPS, P_CLAMP_TGT_RATE,
       P_CLAMP_TGT_RATE_AFTER_TIME_INC, P_HAI_SCALING, P_COUNT };
/* counter ids */
enum { C_CNP, C_FIRST_CNP, C_DECREASES, C_TIMER_EVENTS, C_BYTE_EVENTS, C_FAST_RECOVERY, C_ADDITIVE, C_HYPER,
       C_COUNT };

#define MAX_DEADLINES_PER_EVENT 32
#define MAX_BYTE_EVENTS_PER_BURST 16
#define STAGE_MAX 0xFFFF
#define FXP NICSIM_PCC_PARAM_FXP16
#define INT NICSIM_PCC_PARAM_INTEGER

static const struct port_param PARAMS[P_COUNT] = {
    {"g: alpha gain: alpha = (1-g) alpha + g if a CNP arrived in the period; 1 - DCE_TCP_G/1024, the RoCE ECN/DCQCN article §7.1",
     320, 1, 65536, FXP, "fraction"},
    {"initial_alpha: alpha set on the first CNP (INITIAL_ALPHA_VALUE), the RoCE ECN/DCQCN article §7.1", 65472, 0, 65536, FXP,
     "fraction"},
    {"alpha_update_period_ns: alpha update period (DCE_TCP_RTT), the RoCE ECN/DCQCN article §7.1", 1000, 1, 1u << 30, INT, "ns"},
    {"rate_reduce_monitor_period_ns: at most one rate decrease per period (RATE_REDUCE_MONITOR_PERIOD), the RoCE ECN/DCQCN article §7.2",
     4000, 1, 1u << 30, INT, "ns"},
    {"rate_on_first_cnp: current and target rate set on the first CNP (RATE_TO_SET_ON_FIRST_CNP)", 65536, 1, 65536,
     FXP, "fraction of line rate"},
    {"rpg_gd: decrease Rc by alpha_1024 / 2^gd (RPG_GD; 11 = alpha/2), the RoCE ECN/DCQCN article §7.2", 11, 0, 15, INT, "log2"},
    {"rpg_min_dec_fac: a decrease keeps at least this percentage of Rc (RPG_MIN_DEC_FAC)", 50, 0, 100, INT, "%"},
    {"rpg_min_rate_mbps: floor of the current rate (RPG_MIN_RATE)", 1, 1, 2000000, INT, "Mb/s"},
    {"rpg_time_reset_ns: rate-increase timer period (RPG_TIME_RESET), the RoCE ECN/DCQCN article §7.3", 300000, 1, 1u << 30, INT, "ns"},
    {"rpg_byte_reset_bytes: rate-increase byte counter, 0 = disabled (RPG_BYTE_RESET), the RoCE ECN/DCQCN article §7.3", 32767, 0,
     1u << 30, INT, "bytes"},
    {"rpg_threshold: F: fast-recovery stages before additive increase (RPG_THRESHOLD), the RoCE ECN/DCQCN article §7.3", 1, 0, 1024,
     INT, "stages"},
    {"rpg_ai_rate_mbps: additive increase of the target rate (RPG_AI_RATE), the RoCE ECN/DCQCN article §7.3", 5, 0, 1000000, INT,
     "Mb/s"},
    {"rpg_hai_rate_mbps: hyper increase of the target rate (RPG_HAI_RATE), the RoCE ECN/DCQCN article §7.3", 50, 0, 1000000, INT,
     "Mb/s"},
    {"clamp_tgt_rate: 1: Rt = Rc on every decrease (CLAMP_TGT_RATE)", 0, 0, 1, INT, "flag"},
    {"clamp_tgt_rate_after_time_inc: 1: Rt = Rc on a decrease after a timer or byte increase (CLAMP_TGT_RATE_AFTER_TIME_INC)",
     1, 0, 1, INT, "flag"},
    {"hai_scaling: 0: Rt += HAI per hyper stage (Mellanox, ns-3); 1: Rt += i x HAI at the i-th hyper stage (QCN)", 0,
     0, 1, INT, "flag"},
};

static const char *const COUNTERS[C_COUNT] = {
    "dcqcn_cnp_handled: CNPs handled",
    "dcqcn_first_cnp: flows whose rate limiter started",
    "dcqcn_rate_decreases: rate decreases",
    "dcqcn_timer_increase_events: increase-timer expiries",
    "dcqcn_byte_increase_events: byte-counter expiries",
    "dcqcn_fast_recovery: fast-recovery increases",
    "dcqcn_additive_increase: additive increases",
    "dcqcn_hyper_increase: hyper increases",
};

/* the run-time view of one event: parameters decoded once, like the Java fields */
struct dcqcn {
    uint32_t *ctx;
    const uint32_t *p;
    uint32_t *counters;
    int64_t line_kbps;
};

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    port_declare(0xDC0C, "dcqcn: DCQCN reaction point, the RoCE ECN/DCQCN article §7 (C port of nicsim's Java handler)", PARAMS,
                 P_COUNT, COUNTERS, C_COUNT);
    *disable_event_bitmask = 0;
}

static int32_t line_kbps(const doca_pcc_dev_attr_t *attr)
{
    return (int32_t)((int64_t)attr->line_rate_bps / 1000);
}

void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt, const doca_pcc_dev_event_t *event,
                               const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)event;
    (void)attr;
    results->rate = NICSIM_RATE_ONE;
    results->window_bytes = NICSIM_PCC_WINDOW_UNLIMITED;
}

/* DcqcnAlgorithm.powFraction32: base^m in 0.32, square-and-multiply, each product floored */
static uint64_t pow_fraction32(uint64_t base, uint64_t m)
{
    uint64_t result = 1ull << 32;
    uint64_t b = base;
    uint64_t e = m;
    while (e > 0 && result != 0) {
        if (e & 1) {
            result = (result * b) >> 32;
        }
        b = (b * b) >> 32;
        e >>= 1;
    }
    return result;
}

static void catch_up_alpha(struct dcqcn *s, uint32_t now)
{
    uint32_t *c = s->ctx;
    uint32_t next = c[W_NEXT_ALPHA_NS];
    int32_t late = (int32_t)(now - next);
    if (late < 0) {
        return;
    }
    int64_t period = (int64_t)s->p[P_ALPHA_UPDATE_PERIOD_NS];
    int64_t ticks = (int64_t)late / period + 1;
    uint32_t flags = c[W_FLAGS];
    int64_t g = (int32_t)s->p[P_G];
    int64_t one_minus_g = NICSIM_FXP_ONE - g;
    int64_t alpha = (one_minus_g * (int32_t)c[W_ALPHA] + ((flags & FLAG_ALPHA_CNP) ? g << 16 : 0)) >> 16;
    if (ticks > 1 && alpha > 0) {
        alpha = (int64_t)(((uint64_t)alpha * pow_fraction32((uint64_t)(one_minus_g << 16), (uint64_t)(ticks - 1))) >> 32);
    }
    c[W_ALPHA] = (uint32_t)alpha;
    c[W_NEXT_ALPHA_NS] = (uint32_t)((int64_t)(int32_t)next + ticks * period);
    c[W_FLAGS] = flags & ~(uint32_t)FLAG_ALPHA_CNP;
}

/* Rate decrease at boundary time at, the RoCE ECN/DCQCN article §7.2 */
static void decrease(struct dcqcn *s, uint32_t at)
{
    uint32_t *c = s->ctx;
    const uint32_t *p = s->p;
    port_count(s->counters, C_DECREASES);
    catch_up_alpha(s, at);
    uint32_t stages = c[W_STAGES];
    uint32_t time_stage = stages & STAGE_MAX;
    uint32_t byte_stage = stages >> 16;
    int clamp = p[P_CLAMP_TGT_RATE] != 0
                || (p[P_CLAMP_TGT_RATE_AFTER_TIME_INC] != 0 ? (time_stage != 0 || byte_stage != 0) : byte_stage != 0);
    int64_t rc = (int32_t)c[W_RC_KBPS];
    if (clamp) {
        c[W_RT_KBPS] = (uint32_t)rc;
    }
    int64_t alpha = (int32_t)c[W_ALPHA];
    int64_t reduced = rc - ((rc * alpha) >> (p[P_RPG_GD] + 6));
    int64_t floor = rc * (int64_t)p[P_RPG_MIN_DEC_FAC] / 100;
    int64_t min_rate = (int64_t)p[P_RPG_MIN_RATE_MBPS] * 1000;
    int64_t new_rc = cc_min64(s->line_kbps, cc_max64(cc_max64(reduced, floor), min_rate));
    c[W_RC_KBPS] = (uint32_t)new_rc;
    c[W_STAGES] = 0;
    c[W_BYTE_COUNTER] = 0;
    c[W_NEXT_DECREASE_NS] = at + p[P_RATE_REDUCE_MONITOR_PERIOD_NS];
    c[W_NEXT_INCREASE_NS] = at + p[P_RPG_TIME_RESET_NS];
    c[W_FLAGS] = (c[W_FLAGS] & ~(uint32_t)FLAG_DECREASE_PENDING) | FLAG_INCREASING;
}

/* One rate-increase event, the RoCE ECN/DCQCN article §7.3 */
static void increase(struct dcqcn *s, int timer)
{
    uint32_t *c = s->ctx;
    const uint32_t *p = s->p;
    uint32_t stages = c[W_STAGES];
    uint32_t time_stage = stages & STAGE_MAX;
    uint32_t byte_stage = stages >> 16;
    int64_t stage = time_stage > byte_stage ? time_stage : byte_stage;
    int64_t threshold = (int32_t)p[P_RPG_THRESHOLD];
    int64_t line = s->line_kbps;
    int64_t rt = (int32_t)c[W_RT_KBPS];
    int64_t rc = (int32_t)c[W_RC_KBPS];
    if (stage < threshold) {
        port_count(s->counters, C_FAST_RECOVERY);
    } else if (stage == threshold) {
        port_count(s->counters, C_ADDITIVE);
        rt = cc_min64(line, rt + (int64_t)p[P_RPG_AI_RATE_MBPS] * 1000);
    } else {
        port_count(s->counters, C_HYPER);
        int64_t hai = (int64_t)p[P_RPG_HAI_RATE_MBPS] * 1000;
        rt = cc_min64(line, rt + (p[P_HAI_SCALING] != 0 ? hai * (stage - threshold) : hai));
    }
    int64_t new_rc = cc_min64(line, (rc + rt + 1) >> 1);
    c[W_RT_KBPS] = (uint32_t)rt;
    c[W_RC_KBPS] = (uint32_t)new_rc;
    c[W_STAGES] = timer ? (byte_stage << 16) | (time_stage + 1 < STAGE_MAX ? time_stage + 1 : STAGE_MAX)
                        : ((byte_stage + 1 < STAGE_MAX ? byte_stage + 1 : STAGE_MAX) << 16) | time_stage;
    if (new_rc >= line && rt >= line) {
        c[W_FLAGS] &= ~(uint32_t)FLAG_INCREASING;
    }
}

/* Runs the decrease check and increase timer deadlines due at or before now, in time order */
static void run_due(struct dcqcn *s, uint32_t now)
{
    uint32_t *c = s->ctx;
    for (int i = 0; i < MAX_DEADLINES_PER_EVENT; i++) {
        uint32_t flags = c[W_FLAGS];
        int decrease_due = (flags & FLAG_DECREASE_PENDING) && nicsim_at_or_after(now, c[W_NEXT_DECREASE_NS]);
        int increase_due = (flags & FLAG_INCREASING) && nicsim_at_or_after(now, c[W_NEXT_INCREASE_NS]);
        if (decrease_due && (!increase_due || nicsim_at_or_after(c[W_NEXT_INCREASE_NS], c[W_NEXT_DECREASE_NS]))) {
            decrease(s, c[W_NEXT_DECREASE_NS]);
        } else if (increase_due) {
            uint32_t at = c[W_NEXT_INCREASE_NS];
            port_count(s->counters, C_TIMER_EVENTS);
            increase(s, 1);
            c[W_NEXT_INCREASE_NS] = at + s->p[P_RPG_TIME_RESET_NS];
        } else {
            return;
        }
    }
}

static void count_bytes(struct dcqcn *s, int32_t tx_bytes)
{
    uint32_t *c = s->ctx;
    int64_t reset = (int32_t)s->p[P_RPG_BYTE_RESET_BYTES];
    if (reset == 0 || (c[W_FLAGS] & FLAG_INCREASING) == 0) {
        return;
    }
    int64_t bytes = (int64_t)(int32_t)c[W_BYTE_COUNTER] + cc_max32(0, tx_bytes);
    for (int i = 0; i < MAX_BYTE_EVENTS_PER_BURST && bytes >= reset && (c[W_FLAGS] & FLAG_INCREASING); i++) {
        bytes -= reset;
        port_count(s->counters, C_BYTE_EVENTS);
        increase(s, 0);
    }
    c[W_BYTE_COUNTER] = (uint32_t)(bytes % reset);
}

static void on_cnp(struct dcqcn *s, uint32_t now)
{
    uint32_t *c = s->ctx;
    const uint32_t *p = s->p;
    port_count(s->counters, C_CNP);
    uint32_t flags = c[W_FLAGS];
    if ((flags & FLAG_ACTIVE) == 0) {
        port_count(s->counters, C_FIRST_CNP);
        uint32_t rate = (uint32_t)cc_max64(1, (s->line_kbps * (int64_t)(int32_t)p[P_RATE_ON_FIRST_CNP]) >> 16);
        c[W_RC_KBPS] = rate;
        c[W_RT_KBPS] = rate;
        c[W_ALPHA] = p[P_INITIAL_ALPHA];
        c[W_NEXT_ALPHA_NS] = now + p[P_ALPHA_UPDATE_PERIOD_NS];
        c[W_NEXT_DECREASE_NS] = now + p[P_RATE_REDUCE_MONITOR_PERIOD_NS];
        c[W_STAGES] = 0;
        c[W_BYTE_COUNTER] = 0;
        c[W_FLAGS] = FLAG_ACTIVE | FLAG_DECREASE_PENDING;
        return;
    }
    run_due(s, now);
    catch_up_alpha(s, now);
    flags = c[W_FLAGS] | FLAG_ALPHA_CNP;
    if ((flags & FLAG_DECREASE_PENDING) == 0) {
        uint32_t next = c[W_NEXT_DECREASE_NS];
        int32_t late = (int32_t)(now - next);
        if (late >= 0) {
            int64_t period = (int64_t)p[P_RATE_REDUCE_MONITOR_PERIOD_NS];
            next += (uint32_t)(((int64_t)late / period + 1) * period);
        }
        c[W_NEXT_DECREASE_NS] = next;
        flags |= FLAG_DECREASE_PENDING;
    }
    c[W_FLAGS] = flags;
}

static void arm_timer(struct dcqcn *s, uint32_t now, doca_pcc_dev_results_t *results)
{
    uint32_t *c = s->ctx;
    uint32_t flags = c[W_FLAGS];
    int64_t delay = INT64_MAX;
    if (flags & FLAG_DECREASE_PENDING) {
        delay = (int32_t)(c[W_NEXT_DECREASE_NS] - now);
    }
    if (flags & FLAG_INCREASING) {
        delay = cc_min64(delay, (int32_t)(c[W_NEXT_INCREASE_NS] - now));
    }
    if (delay != INT64_MAX) {
        nicsim_pcc_set_timer_ns(results, (uint32_t)cc_max64(1, delay));
    }
}

/* DcqcnAlgorithm.toRate */
static int64_t to_rate(int32_t rc_kbps, uint64_t line_bps)
{
    return (((int64_t)rc_kbps * 1000) << 20) / (int64_t)line_bps;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t type = event->ev_type;
    uint32_t port = event->port_num;
    struct dcqcn s = {
        .ctx = algo_ctxt->data,
        .p = doca_pcc_dev_get_algo_params(port, attr->algo_slot),
        .counters = doca_pcc_dev_get_counters(port, attr->algo_slot),
        .line_kbps = line_kbps(attr),
    };
    uint32_t now = doca_pcc_dev_get_timestamp(event);
    if (type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        on_cnp(&s, now);
    } else if (type == NICSIM_PCC_EVNT_TIMER || type == DOCA_PCC_DEV_EVNT_ROCE_TX) {
        if ((s.ctx[W_FLAGS] & FLAG_ACTIVE) == 0) {
            return;
        }
        run_due(&s, now);
        if (type == DOCA_PCC_DEV_EVNT_ROCE_TX) {
            count_bytes(&s, (int32_t)nicsim_pcc_get_tx_bytes(event));
        }
    } else {
        return; /* ACK, NACK, RTT do not drive the RP */
    }
    arm_timer(&s, now, results);
    cc_set_rate(results, to_rate((int32_t)s.ctx[W_RC_KBPS], attr->line_rate_bps));
}
