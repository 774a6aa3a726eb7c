/*
 * Fixed-point rate arithmetic of the kind NIC congestion-control firmware runs
 * (DCQCN, Zhu et al., SIGCOMM 2015, section 3.3 / algorithm 1; TIMELY's RTT
 * gradient, Mittal et al., SIGCOMM 2015, algorithm 1), in Q-formats with
 * 64-bit intermediates, rounding shifts of negative values and saturation:
 *
 *   alpha   Q16 unsigned (65536 = 1.0), g = 1/256:
 *           on CNP   alpha <- alpha - alpha*g + g
 *           on timer alpha <- alpha - alpha*g
 *   rates   bits/s in uint64 (line rate 100 Gb/s), Rc <- Rc * (1 - alpha/2) on CNP,
 *           fast recovery Rc <- (Rt + Rc) / 2, additive increase Rt += R_AI,
 *           hyper increase Rt += i * R_HAI, clamped to [R_MIN, line rate].
 *   timely  gradient Q16.16 signed = (rtt - prev_rtt) / min_rtt, EWMA with
 *           weight 1/8 (arithmetic shifts of negative numbers), multiplicative
 *           decrease rate * (1 - beta * gradient) saturated.
 *
 * Events come from a 32-bit LCG so the run is deterministic. Prints the state
 * every 2000 events; exit status = final DCQCN rate in Gb/s (0..100).
 */
#include "rt.h"

#define LINE_RATE_BPS 100000000000ull
#define R_MIN_BPS 10000000ull
#define R_AI_BPS 40000000ull
#define R_HAI_BPS 400000000ull
#define ALPHA_ONE 65536u
#define G_SHIFT 8
#define F_STAGES 5

struct dcqcn {
    uint32_t alpha_q16;
    uint64_t rc_bps, rt_bps;
    uint32_t byte_stage, timer_stage;
    uint32_t cnps, increases;
};

static void dcqcn_cnp(struct dcqcn *s)
{
    s->alpha_q16 = s->alpha_q16 - (s->alpha_q16 >> G_SHIFT) + (ALPHA_ONE >> G_SHIFT);
    if (s->alpha_q16 > ALPHA_ONE) s->alpha_q16 = ALPHA_ONE;
    s->rt_bps = s->rc_bps;
    /* Rc * (1 - alpha/2) with a 64x32 product split to keep 64-bit intermediates */
    uint64_t factor_q17 = 2u * ALPHA_ONE - s->alpha_q16;   /* (1 - alpha/2) in Q17 */
    uint64_t hi = (s->rc_bps >> 32) * factor_q17;
    uint64_t lo = (s->rc_bps & 0xffffffffu) * factor_q17;
    s->rc_bps = (hi << 15) + (lo >> 17);
    if (s->rc_bps < R_MIN_BPS) s->rc_bps = R_MIN_BPS;
    s->byte_stage = s->timer_stage = 0;
    s->cnps++;
}

static void dcqcn_alpha_timer(struct dcqcn *s)
{
    s->alpha_q16 -= s->alpha_q16 >> G_SHIFT;
}

static void dcqcn_increase(struct dcqcn *s, int by_timer)
{
    if (by_timer) s->timer_stage++; else s->byte_stage++;
    uint32_t max_stage = s->timer_stage > s->byte_stage ? s->timer_stage : s->byte_stage;
    uint32_t min_stage = s->timer_stage < s->byte_stage ? s->timer_stage : s->byte_stage;
    if (max_stage < F_STAGES) {
        /* fast recovery */
    } else if (min_stage < F_STAGES) {
        s->rt_bps += R_AI_BPS;
    } else {
        s->rt_bps += (uint64_t)(min_stage - F_STAGES + 1) * R_HAI_BPS;
    }
    if (s->rt_bps > LINE_RATE_BPS) s->rt_bps = LINE_RATE_BPS;
    s->rc_bps = (s->rt_bps + s->rc_bps) / 2;
    s->increases++;
}

struct timely {
    int32_t rtt_diff_q16;     /* EWMA of RTT differences in Q16.16 microseconds */
    uint32_t prev_rtt_ns;
    uint64_t rate_bps;
    int32_t last_gradient_q16;
};

static int32_t sat32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static void timely_update(struct timely *t, uint32_t rtt_ns)
{
    const uint32_t min_rtt_ns = 5000, t_low_ns = 20000, t_high_ns = 200000;
    int64_t diff_q16 = ((int64_t)rtt_ns - (int64_t)t->prev_rtt_ns) * 65536 / 1000;  /* us in Q16 */
    t->prev_rtt_ns = rtt_ns;
    /* EWMA with alpha = 1/8: x += (new - x) >> 3, arithmetic shift of a negative value */
    t->rtt_diff_q16 = sat32((int64_t)t->rtt_diff_q16 + ((diff_q16 - t->rtt_diff_q16) >> 3));
    int32_t gradient_q16 = sat32((int64_t)t->rtt_diff_q16 * 1000 / (int32_t)min_rtt_ns);
    t->last_gradient_q16 = gradient_q16;
    if (rtt_ns < t_low_ns) {
        t->rate_bps += R_AI_BPS * 5;
    } else if (rtt_ns > t_high_ns) {
        /* rate *= 1 - beta * (1 - t_high/rtt), beta = 0.8 in Q16 */
        uint64_t keep_q16 = 65536 - (52429ull * (65536 - ((uint64_t)t_high_ns << 16) / rtt_ns) >> 16);
        t->rate_bps = (t->rate_bps >> 16) * keep_q16 + (((t->rate_bps & 0xffff) * keep_q16) >> 16);
    } else if (gradient_q16 <= 0) {
        t->rate_bps += R_AI_BPS * 5;
    } else {
        int64_t g = gradient_q16 > 65536 ? 65536 : gradient_q16;
        uint64_t keep_q16 = (uint64_t)(65536 - ((52429 * g) >> 16));
        t->rate_bps = (t->rate_bps >> 16) * keep_q16;
    }
    if (t->rate_bps > LINE_RATE_BPS) t->rate_bps = LINE_RATE_BPS;
    if (t->rate_bps < R_MIN_BPS) t->rate_bps = R_MIN_BPS;
}

static uint32_t lcg = 12345;

static uint32_t rnd(void)
{
    lcg = lcg * 1664525u + 1013904223u;
    return lcg >> 8;
}

static void print_state(int ev, const struct dcqcn *d, const struct timely *t)
{
    rt_puts("ev=");
    rt_put_dec(ev);
    rt_puts(" alpha_q16=");
    rt_put_udec(d->alpha_q16);
    rt_puts(" rc=");
    rt_put_udec(d->rc_bps);
    rt_puts(" rt=");
    rt_put_udec(d->rt_bps);
    rt_puts(" cnps=");
    rt_put_udec(d->cnps);
    rt_puts(" timely.rate=");
    rt_put_udec(t->rate_bps);
    rt_puts(" grad_q16=");
    rt_put_dec(t->last_gradient_q16);
    rt_puts(" ewma_q16=");
    rt_put_dec(t->rtt_diff_q16);
    rt_putc('\n');
}

int main(void)
{
    struct dcqcn d = {ALPHA_ONE, LINE_RATE_BPS, LINE_RATE_BPS, 0, 0, 0, 0};
    struct timely t = {0, 10000, LINE_RATE_BPS / 2, 0};
    uint32_t rtt_ns = 10000;
    for (int ev = 1; ev <= 20000; ev++) {
        uint32_t r = rnd();
        /* congestion episodes: CNP probability rises while (ev / 1000) is odd */
        uint32_t cnp_per_256 = ((ev / 1000) & 1) ? 24 : 1;
        if ((r & 0xff) < cnp_per_256) {
            dcqcn_cnp(&d);
        } else if ((r >> 8) % 5 == 0) {
            dcqcn_alpha_timer(&d);
            dcqcn_increase(&d, 1);
        } else {
            dcqcn_increase(&d, 0);
        }
        /* RTT random walk between 2 us and 400 us */
        int32_t step = (int32_t)((r >> 12) % 4001) - 1900 - (((ev / 1000) & 1) ? 0 : 300);
        int64_t next = (int64_t)rtt_ns + step;
        rtt_ns = next < 2000 ? 2000u : next > 400000 ? 400000u : (uint32_t)next;
        timely_update(&t, rtt_ns);
        if (ev % 2000 == 0) {
            print_state(ev, &d, &t);
        }
    }
    rt_kv_udec("increases", d.increases);
    return (int)(d.rc_bps / 1000000000ull);
}
