/*
 * dcqcn_engine.c - the DCQCN reaction point of the firmware runtime (nicsim_dcqcn.h): the C port of
 * nicsim's Java DcqcnAlgorithm (microcode, dev.nicsim.microcode.algorithms) with the same 48-byte
 * context layout, parameter and counter ids and integer arithmetic, so both give identical results
 * for identical events. the RoCE ECN/DCQCN article section 7; the Java class's javadoc explains the
 * state machine. doca_pcc_dev_default_internal_algo (rt.c) runs it with nicsim_dcqcn_default_params;
 * algorithms/dcqcn.c runs it with its slot's parameters and counters.
 */
#include "nicsim_pcc.h"
#include "nicsim_dcqcn.h"
#include "../algorithms/port_util.h"

const uint32_t nicsim_dcqcn_default_params[NICSIM_DCQCN_P_COUNT] = {
    NICSIM_DCQCN_DEFAULT_G, NICSIM_DCQCN_DEFAULT_INITIAL_ALPHA, NICSIM_DCQCN_DEFAULT_ALPHA_UPDATE_PERIOD_NS,
    NICSIM_DCQCN_DEFAULT_RATE_REDUCE_MONITOR_PERIOD_NS, NICSIM_DCQCN_DEFAULT_RATE_ON_FIRST_CNP,
    NICSIM_DCQCN_DEFAULT_RPG_GD, NICSIM_DCQCN_DEFAULT_RPG_MIN_DEC_FAC, NICSIM_DCQCN_DEFAULT_RPG_MIN_RATE_MBPS,
    NICSIM_DCQCN_DEFAULT_RPG_TIME_RESET_NS, NICSIM_DCQCN_DEFAULT_RPG_BYTE_RESET_BYTES,
    NICSIM_DCQCN_DEFAULT_RPG_THRESHOLD, NICSIM_DCQCN_DEFAULT_RPG_AI_RATE_MBPS,
    NICSIM_DCQCN_DEFAULT_RPG_HAI_RATE_MBPS, NICSIM_DCQCN_DEFAULT_CLAMP_TGT_RATE,
    NICSIM_DCQCN_DEFAULT_CLAMP_TGT_RATE_AFTER_TIME_INC, NICSIM_DCQCN_DEFAULT_HAI_SCALING,
};

/* context words (DcqcnAlgorithm.W_*) */
enum { W_FLAGS = 0, W_RC_KBPS = 1, W_RT_KBPS = 2, W_ALPHA = 3, W_NEXT_ALPHA_NS = 4, W_NEXT_DECREASE_NS = 5,
       W_NEXT_INCREASE_NS = 6, W_STAGES = 7, W_BYTE_COUNTER = 8 };
enum { FLAG_ACTIVE = 1, FLAG_ALPHA_CNP = 2, FLAG_DECREASE_PENDING = 4, FLAG_INCREASING = 8 };
#define MAX_DEADLINES_PER_EVENT 32
#define MAX_BYTE_EVENTS_PER_BURST 16
#define STAGE_MAX 0xFFFF

/* the run-time view of one event: parameters decoded once, like the Java fields */
struct dcqcn {
    uint32_t *ctx;
    const uint32_t *p;
    uint32_t *counters;
    int64_t line_kbps;
};

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
    int64_t period = (int64_t)s->p[NICSIM_DCQCN_P_ALPHA_UPDATE_PERIOD_NS];
    int64_t ticks = (int64_t)late / period + 1;
    uint32_t flags = c[W_FLAGS];
    int64_t g = (int32_t)s->p[NICSIM_DCQCN_P_G];
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
    port_count(s->counters, NICSIM_DCQCN_C_DECREASES);
    catch_up_alpha(s, at);
    uint32_t stages = c[W_STAGES];
    uint32_t time_stage = stages & STAGE_MAX;
    uint32_t byte_stage = stages >> 16;
    int clamp = p[NICSIM_DCQCN_P_CLAMP_TGT_RATE] != 0
                || (p[NICSIM_DCQCN_P_CLAMP_TGT_RATE_AFTER_TIME_INC] != 0 ? (time_stage != 0 || byte_stage != 0) : byte_stage != 0);
    int64_t rc = (int32_t)c[W_RC_KBPS];
    if (clamp) {
        c[W_RT_KBPS] = (uint32_t)rc;
    }
    int64_t alpha = (int32_t)c[W_ALPHA];
    int64_t reduced = rc - ((rc * alpha) >> (p[NICSIM_DCQCN_P_RPG_GD] + 6));
    int64_t floor = rc * (int64_t)p[NICSIM_DCQCN_P_RPG_MIN_DEC_FAC] / 100;
    int64_t min_rate = (int64_t)p[NICSIM_DCQCN_P_RPG_MIN_RATE_MBPS] * 1000;
    int64_t new_rc = cc_min64(s->line_kbps, cc_max64(cc_max64(reduced, floor), min_rate));
    c[W_RC_KBPS] = (uint32_t)new_rc;
    c[W_STAGES] = 0;
    c[W_BYTE_COUNTER] = 0;
    c[W_NEXT_DECREASE_NS] = at + p[NICSIM_DCQCN_P_RATE_REDUCE_MONITOR_PERIOD_NS];
    c[W_NEXT_INCREASE_NS] = at + p[NICSIM_DCQCN_P_RPG_TIME_RESET_NS];
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
    int64_t threshold = (int32_t)p[NICSIM_DCQCN_P_RPG_THRESHOLD];
    int64_t line = s->line_kbps;
    int64_t rt = (int32_t)c[W_RT_KBPS];
    int64_t rc = (int32_t)c[W_RC_KBPS];
    if (stage < threshold) {
        port_count(s->counters, NICSIM_DCQCN_C_FAST_RECOVERY);
    } else if (stage == threshold) {
        port_count(s->counters, NICSIM_DCQCN_C_ADDITIVE);
        rt = cc_min64(line, rt + (int64_t)p[NICSIM_DCQCN_P_RPG_AI_RATE_MBPS] * 1000);
    } else {
        port_count(s->counters, NICSIM_DCQCN_C_HYPER);
        int64_t hai = (int64_t)p[NICSIM_DCQCN_P_RPG_HAI_RATE_MBPS] * 1000;
        rt = cc_min64(line, rt + (p[NICSIM_DCQCN_P_HAI_SCALING] != 0 ? hai * (stage - threshold) : hai));
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
            port_count(s->counters, NICSIM_DCQCN_C_TIMER_EVENTS);
            increase(s, 1);
            c[W_NEXT_INCREASE_NS] = at + s->p[NICSIM_DCQCN_P_RPG_TIME_RESET_NS];
        } else {
            return;
        }
    }
}

static void count_bytes(struct dcqcn *s, int32_t tx_bytes)
{
    uint32_t *c = s->ctx;
    int64_t reset = (int32_t)s->p[NICSIM_DCQCN_P_RPG_BYTE_RESET_BYTES];
    if (reset == 0 || (c[W_FLAGS] & FLAG_INCREASING) == 0) {
        return;
    }
    int64_t bytes = (int64_t)(int32_t)c[W_BYTE_COUNTER] + cc_max32(0, tx_bytes);
    for (int i = 0; i < MAX_BYTE_EVENTS_PER_BURST && bytes >= reset && (c[W_FLAGS] & FLAG_INCREASING); i++) {
        bytes -= reset;
        port_count(s->counters, NICSIM_DCQCN_C_BYTE_EVENTS);
        increase(s, 0);
    }
    c[W_BYTE_COUNTER] = (uint32_t)(bytes % reset);
}

static void on_cnp(struct dcqcn *s, uint32_t now)
{
    uint32_t *c = s->ctx;
    const uint32_t *p = s->p;
    port_count(s->counters, NICSIM_DCQCN_C_CNP);
    uint32_t flags = c[W_FLAGS];
    if ((flags & FLAG_ACTIVE) == 0) {
        port_count(s->counters, NICSIM_DCQCN_C_FIRST_CNP);
        uint32_t rate = (uint32_t)cc_max64(1, (s->line_kbps * (int64_t)(int32_t)p[NICSIM_DCQCN_P_RATE_ON_FIRST_CNP]) >> 16);
        c[W_RC_KBPS] = rate;
        c[W_RT_KBPS] = rate;
        c[W_ALPHA] = p[NICSIM_DCQCN_P_INITIAL_ALPHA];
        c[W_NEXT_ALPHA_NS] = now + p[NICSIM_DCQCN_P_ALPHA_UPDATE_PERIOD_NS];
        c[W_NEXT_DECREASE_NS] = now + p[NICSIM_DCQCN_P_RATE_REDUCE_MONITOR_PERIOD_NS];
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
            int64_t period = (int64_t)p[NICSIM_DCQCN_P_RATE_REDUCE_MONITOR_PERIOD_NS];
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

void nicsim_dcqcn_event(uint32_t *ctx, const uint32_t *params, uint32_t *counters, const doca_pcc_dev_event_t *event,
                        const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t type = event->ev_type;
    struct dcqcn s = {
        .ctx = ctx,
        .p = params,
        .counters = counters,
        .line_kbps = (int32_t)((int64_t)attr->line_rate_bps / 1000), /* DcqcnAlgorithm: int kb/s */
    };
    uint32_t now = doca_pcc_dev_get_timestamp(event);
    if (type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        on_cnp(&s, now);
    } else if (type == NICSIM_PCC_EVNT_TIMER || type == DOCA_PCC_DEV_EVNT_ROCE_TX) {
        if ((ctx[W_FLAGS] & FLAG_ACTIVE) == 0) {
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
    cc_set_rate(results, to_rate((int32_t)ctx[W_RC_KBPS], attr->line_rate_bps));
}
