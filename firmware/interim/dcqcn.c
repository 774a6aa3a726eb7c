/*
 * DCQCN reaction point, a C port of microcode's DcqcnAlgorithm (same context words, fixed point and
 * integer widths, so results are identical: FirmwareDifferentialTest). Interim, Java side; see
 * nicsim_interim.h.
 */
#include "nicsim_interim.h"

enum { W_FLAGS, W_RC_KBPS, W_RT_KBPS, W_ALPHA, W_NEXT_ALPHA_NS, W_NEXT_DECREASE_NS, W_NEXT_INCREASE_NS, W_STAGES, W_BYTE_COUNTER };
enum { FLAG_ACTIVE = 1, FLAG_ALPHA_CNP = 2, FLAG_DECREASE_PENDING = 4, FLAG_INCREASING = 8 };
enum { P_G, P_INITIAL_ALPHA, P_ALPHA_PERIOD, P_DECREASE_PERIOD, P_RATE_ON_FIRST_CNP, P_RPG_GD, P_MIN_DEC_FAC, P_MIN_RATE_MBPS,
       P_TIME_RESET, P_BYTE_RESET, P_THRESHOLD, P_AI_MBPS, P_HAI_MBPS, P_CLAMP, P_CLAMP_AFTER_TIME_INC, P_HAI_SCALING, P_COUNT };
enum { C_CNP, C_FIRST_CNP, C_DECREASES, C_TIMER_EVENTS, C_BYTE_EVENTS, C_FAST_RECOVERY, C_ADDITIVE, C_HYPER, C_COUNT };
#define MAX_DEADLINES_PER_EVENT 32
#define MAX_BYTE_EVENTS_PER_BURST 16
#define STAGE_MAX 0xFFFF
#define ONE 65536

static const struct { const char *desc; uint32_t def, max, min; } PARAMS[P_COUNT] = {
    {"g|fraction|alpha gain", 5 * 64, 65536, 1},
    {"initial_alpha|fraction|alpha set on the first CNP", 1023 * 64, 65536, 0},
    {"alpha_update_period_ns|ns|alpha update period", 1000, 1u << 30, 1},
    {"rate_reduce_monitor_period_ns|ns|at most one decrease per period", 4000, 1u << 30, 1},
    {"rate_on_first_cnp|fraction|rate set on the first CNP", 65536, 65536, 1},
    {"rpg_gd|log2|decrease by alpha / 2^gd", 11, 15, 0},
    {"rpg_min_dec_fac|%|a decrease keeps at least this percentage", 50, 100, 0},
    {"rpg_min_rate_mbps|Mb/s|floor of the current rate", 1, 2000000, 1},
    {"rpg_time_reset_ns|ns|rate-increase timer period", 300000, 1u << 30, 1},
    {"rpg_byte_reset_bytes|bytes|rate-increase byte counter, 0 = off", 32767, 1u << 30, 0},
    {"rpg_threshold|stages|fast-recovery stages", 1, 1024, 0},
    {"rpg_ai_rate_mbps|Mb/s|additive increase", 5, 1000000, 0},
    {"rpg_hai_rate_mbps|Mb/s|hyper increase", 50, 1000000, 0},
    {"clamp_tgt_rate|flag|clamp the target on every decrease", 0, 1, 0},
    {"clamp_tgt_rate_after_time_inc|flag|clamp after a timer increase", 1, 1, 0},
    {"hai_scaling|flag|Rt += i x HAI", 0, 1, 0},
};
static const char *const COUNTERS[C_COUNT] = {"dcqcn_cnp_handled", "dcqcn_first_cnp", "dcqcn_rate_decreases",
    "dcqcn_timer_increase_events", "dcqcn_byte_increase_events", "dcqcn_fast_recovery", "dcqcn_additive_increase",
    "dcqcn_hyper_increase"};
static const char DESC[] = "dcqcn|DCQCN reaction point (port of the Java handler)";

static uint32_t len(const char *s) { uint32_t n = 0; while (s[n]) n++; return n + 1; }

void doca_pcc_dev_user_init(uint32_t *disable) {
    const struct doca_pcc_dev_algo_meta_data md = {0xDC0C, 1, 0, sizeof DESC, (uint64_t) (uintptr_t) DESC};
    doca_pcc_dev_algo_init_metadata(0, &md, P_COUNT, C_COUNT);
    for (uint32_t i = 0; i < P_COUNT; i++)
        doca_pcc_dev_algo_init_param(0, i, PARAMS[i].def, PARAMS[i].max, PARAMS[i].min, 1, len(PARAMS[i].desc),
                                     (uint64_t) (uintptr_t) PARAMS[i].desc);
    for (uint32_t i = 0; i < C_COUNT; i++)
        doca_pcc_dev_algo_init_counter(0, i, 0xFFFFFFFFu, 0, len(COUNTERS[i]), (uint64_t) (uintptr_t) COUNTERS[i]);
    for (uint32_t port = 0; port < 4; port++) doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    *disable = 0;
}

static inline int at_or_after(int32_t t, int32_t ref) { return (int32_t) (t - ref) >= 0; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

struct run { uint32_t *c; const uint32_t *p; uint32_t *cnt; int64_t line; };

static uint64_t pow_fraction32(uint64_t base, int64_t m) {
    uint64_t result = 1ull << 32, b = base;
    int64_t e = m;
    while (e > 0 && result != 0) {
        if (e & 1) result = (result * b) >> 32;
        b = (b * b) >> 32;
        e >>= 1;
    }
    return result;
}

static void catch_up_alpha(struct run *r, int32_t now) {
    uint32_t *c = r->c;
    int32_t next = (int32_t) c[W_NEXT_ALPHA_NS];
    int32_t late = now - next;
    if (late < 0) return;
    int64_t period = (int32_t) r->p[P_ALPHA_PERIOD];
    int64_t ticks = (int64_t) late / period + 1;
    uint32_t flags = c[W_FLAGS];
    int64_t g = (int32_t) r->p[P_G];
    int64_t one_minus_g = ONE - g;
    int64_t alpha = (one_minus_g * (int32_t) c[W_ALPHA] + ((flags & FLAG_ALPHA_CNP) ? g << 16 : 0)) >> 16;
    if (ticks > 1 && alpha > 0) alpha = (int64_t) (((uint64_t) alpha * pow_fraction32((uint64_t) one_minus_g << 16, ticks - 1)) >> 32);
    c[W_ALPHA] = (uint32_t) (int32_t) alpha;
    c[W_NEXT_ALPHA_NS] = (uint32_t) (int32_t) (next + ticks * period);
    c[W_FLAGS] = flags & ~FLAG_ALPHA_CNP;
}

static void increase(struct run *r, int timer) {
    uint32_t *c = r->c;
    uint32_t stages = c[W_STAGES];
    int32_t time_stage = stages & STAGE_MAX, byte_stage = stages >> 16;
    int32_t stage = time_stage > byte_stage ? time_stage : byte_stage;
    int64_t rt = (int32_t) c[W_RT_KBPS], rc = (int32_t) c[W_RC_KBPS];
    int32_t threshold = (int32_t) r->p[P_THRESHOLD];
    int64_t ai = (int64_t) r->p[P_AI_MBPS] * 1000, hai = (int64_t) r->p[P_HAI_MBPS] * 1000;
    if (stage < threshold) r->cnt[C_FAST_RECOVERY]++;
    else if (stage == threshold) { r->cnt[C_ADDITIVE]++; rt = min64(r->line, rt + ai); }
    else { r->cnt[C_HYPER]++; rt = min64(r->line, rt + (r->p[P_HAI_SCALING] ? hai * (stage - threshold) : hai)); }
    int64_t new_rc = min64(r->line, (rc + rt + 1) >> 1);
    c[W_RT_KBPS] = (uint32_t) (int32_t) rt;
    c[W_RC_KBPS] = (uint32_t) (int32_t) new_rc;
    c[W_STAGES] = timer ? (uint32_t) (byte_stage << 16) | (uint32_t) (time_stage + 1 < STAGE_MAX ? time_stage + 1 : STAGE_MAX)
                        : ((uint32_t) (byte_stage + 1 < STAGE_MAX ? byte_stage + 1 : STAGE_MAX) << 16) | (uint32_t) time_stage;
    if (new_rc >= r->line && rt >= r->line) c[W_FLAGS] &= ~FLAG_INCREASING;
}

static void decrease(struct run *r, int32_t at) {
    uint32_t *c = r->c;
    r->cnt[C_DECREASES]++;
    catch_up_alpha(r, at);
    uint32_t stages = c[W_STAGES];
    int32_t time_stage = stages & STAGE_MAX, byte_stage = stages >> 16;
    int clamp = r->p[P_CLAMP] || (r->p[P_CLAMP_AFTER_TIME_INC] ? (time_stage != 0 || byte_stage != 0) : byte_stage != 0);
    int64_t rc = (int32_t) c[W_RC_KBPS];
    if (clamp) c[W_RT_KBPS] = (uint32_t) rc;
    int64_t alpha = (int32_t) c[W_ALPHA];
    int64_t reduced = rc - ((rc * alpha) >> ((int32_t) r->p[P_RPG_GD] + 6));
    int64_t floor = rc * (int32_t) r->p[P_MIN_DEC_FAC] / 100;
    int64_t new_rc = min64(r->line, max64(max64(reduced, floor), (int64_t) r->p[P_MIN_RATE_MBPS] * 1000));
    c[W_RC_KBPS] = (uint32_t) (int32_t) new_rc;
    c[W_STAGES] = 0;
    c[W_BYTE_COUNTER] = 0;
    c[W_NEXT_DECREASE_NS] = (uint32_t) (at + (int32_t) r->p[P_DECREASE_PERIOD]);
    c[W_NEXT_INCREASE_NS] = (uint32_t) (at + (int32_t) r->p[P_TIME_RESET]);
    c[W_FLAGS] = (c[W_FLAGS] & ~FLAG_DECREASE_PENDING) | FLAG_INCREASING;
}

static void run_due(struct run *r, int32_t now) {
    uint32_t *c = r->c;
    for (int i = 0; i < MAX_DEADLINES_PER_EVENT; i++) {
        uint32_t flags = c[W_FLAGS];
        int dec = (flags & FLAG_DECREASE_PENDING) && at_or_after(now, (int32_t) c[W_NEXT_DECREASE_NS]);
        int inc = (flags & FLAG_INCREASING) && at_or_after(now, (int32_t) c[W_NEXT_INCREASE_NS]);
        if (dec && (!inc || at_or_after((int32_t) c[W_NEXT_INCREASE_NS], (int32_t) c[W_NEXT_DECREASE_NS]))) {
            decrease(r, (int32_t) c[W_NEXT_DECREASE_NS]);
        } else if (inc) {
            int32_t at = (int32_t) c[W_NEXT_INCREASE_NS];
            r->cnt[C_TIMER_EVENTS]++;
            increase(r, 1);
            c[W_NEXT_INCREASE_NS] = (uint32_t) (at + (int32_t) r->p[P_TIME_RESET]);
        } else {
            return;
        }
    }
}

static void count_bytes(struct run *r, int32_t tx_bytes) {
    uint32_t *c = r->c;
    int64_t reset = (int32_t) r->p[P_BYTE_RESET];
    if (reset == 0 || (c[W_FLAGS] & FLAG_INCREASING) == 0) return;
    int64_t bytes = (int64_t) (int32_t) c[W_BYTE_COUNTER] + (tx_bytes > 0 ? tx_bytes : 0);
    for (int i = 0; i < MAX_BYTE_EVENTS_PER_BURST && bytes >= reset && (c[W_FLAGS] & FLAG_INCREASING); i++) {
        bytes -= reset;
        r->cnt[C_BYTE_EVENTS]++;
        increase(r, 0);
    }
    c[W_BYTE_COUNTER] = (uint32_t) (int32_t) (bytes % reset);
}

static void on_cnp(struct run *r, int32_t now) {
    uint32_t *c = r->c;
    r->cnt[C_CNP]++;
    uint32_t flags = c[W_FLAGS];
    if ((flags & FLAG_ACTIVE) == 0) {
        r->cnt[C_FIRST_CNP]++;
        int64_t rate = (r->line * (int32_t) r->p[P_RATE_ON_FIRST_CNP]) >> 16;
        if (rate < 1) rate = 1;
        c[W_RC_KBPS] = (uint32_t) rate;
        c[W_RT_KBPS] = (uint32_t) rate;
        c[W_ALPHA] = r->p[P_INITIAL_ALPHA];
        c[W_NEXT_ALPHA_NS] = (uint32_t) (now + (int32_t) r->p[P_ALPHA_PERIOD]);
        c[W_NEXT_DECREASE_NS] = (uint32_t) (now + (int32_t) r->p[P_DECREASE_PERIOD]);
        c[W_STAGES] = 0;
        c[W_BYTE_COUNTER] = 0;
        c[W_FLAGS] = FLAG_ACTIVE | FLAG_DECREASE_PENDING;
        return;
    }
    run_due(r, now);
    catch_up_alpha(r, now);
    flags = c[W_FLAGS] | FLAG_ALPHA_CNP;
    if ((flags & FLAG_DECREASE_PENDING) == 0) {
        int32_t next = (int32_t) c[W_NEXT_DECREASE_NS];
        int32_t late = now - next;
        int64_t period = (int32_t) r->p[P_DECREASE_PERIOD];
        if (late >= 0) next += (int32_t) (((int64_t) late / period + 1) * period);
        c[W_NEXT_DECREASE_NS] = (uint32_t) next;
        flags |= FLAG_DECREASE_PENDING;
    }
    c[W_FLAGS] = flags;
}

static int32_t to_rate(int32_t rc_kbps, uint64_t line_bps) {
    int64_t v = (int64_t) ((((uint64_t) (int64_t) rc_kbps * 1000u) << 20) / line_bps);
    return (int32_t) (v < 1 ? 1 : v > (1 << 20) ? (1 << 20) : v);
}

void nicsim_algo_event(doca_pcc_dev_algo_ctxt_t *ctx, const nicsim_event_t *ev, struct nicsim_mailbox *mb) {
    struct run r = {ctx->data, doca_pcc_dev_get_algo_params(0, mb->algo_slot), doca_pcc_dev_get_counters(0, mb->algo_slot),
                    (int64_t) (mb->line_rate_bps / 1000)};
    int32_t now = (int32_t) ev->timestamp;
    if (ev->type == NICSIM_EV_CNP) {
        on_cnp(&r, now);
    } else if (ev->type == NICSIM_EV_TIMER || ev->type == NICSIM_EV_TX) {
        if ((r.c[W_FLAGS] & FLAG_ACTIVE) == 0) return;
        run_due(&r, now);
        if (ev->type == NICSIM_EV_TX) count_bytes(&r, (int32_t) ev->tx_bytes);
    } else {
        return;
    }
    uint32_t flags = r.c[W_FLAGS];
    int64_t delay = INT64_MAX;
    if (flags & FLAG_DECREASE_PENDING) delay = (int32_t) ((int32_t) r.c[W_NEXT_DECREASE_NS] - now);
    if (flags & FLAG_INCREASING) delay = min64(delay, (int32_t) ((int32_t) r.c[W_NEXT_INCREASE_NS] - now));
    if (delay != INT64_MAX) mb->timer_ns = (int32_t) (delay < 1 ? 1 : delay);
    mb->rate = to_rate((int32_t) r.c[W_RC_KBPS], mb->line_rate_bps);
}

void nicsim_user_flow_init(doca_pcc_dev_algo_ctxt_t *ctx, struct nicsim_mailbox *mb) {
    (void) ctx;
    mb->rate = 1 << 20;
    mb->window_bytes = 0;
}
