/*
 * algo.c - hello_cc's per-event handler (DOCA PCC names only): a new flow starts at line rate;
 * a CNP multiplies the rate by `decrease` (not below min_rate); a TX event more than
 * recovery_ns after the last cut or increase adds `ai` (not above line rate).
 */
#include <doca_pcc_dev.h>
#include "hello_cc.h"

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t *ctx = algo_ctxt->data;
    doca_pcc_dev_event_general_attr_t ev = doca_pcc_dev_get_ev_attr(event);
    uint32_t *params = doca_pcc_dev_get_algo_params(ev.port_num, attr->algo_slot);
    uint32_t *counters = doca_pcc_dev_get_counters(ev.port_num, attr->algo_slot);
    uint32_t now = doca_pcc_dev_get_timestamp(event);

    if (unlikely(ctx[HELLO_W_RATE] == 0)) {
        ctx[HELLO_W_RATE] = DOCA_PCC_DEV_MAX_RATE;
        ctx[HELLO_W_LAST_CNP_NS] = now;
        ctx[HELLO_W_LAST_INC_NS] = now;
    }
    if (ev.ev_type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        uint32_t rate = doca_pcc_dev_fxp_mult(ctx[HELLO_W_RATE], params[HELLO_P_DECREASE]);
        ctx[HELLO_W_RATE] = rate < params[HELLO_P_MIN_RATE] ? params[HELLO_P_MIN_RATE] : rate;
        ctx[HELLO_W_LAST_CNP_NS] = now;
        ctx[HELLO_W_LAST_INC_NS] = now;
        if (counters != NULL) {
            counters[HELLO_C_CUTS]++;
        }
    } else if (ev.ev_type == DOCA_PCC_DEV_EVNT_ROCE_TX && ctx[HELLO_W_RATE] < DOCA_PCC_DEV_MAX_RATE
               && now - ctx[HELLO_W_LAST_INC_NS] > params[HELLO_P_RECOVERY_NS]) {
        uint32_t rate = ctx[HELLO_W_RATE] + params[HELLO_P_AI];
        ctx[HELLO_W_RATE] = rate > DOCA_PCC_DEV_MAX_RATE ? DOCA_PCC_DEV_MAX_RATE : rate;
        ctx[HELLO_W_LAST_INC_NS] = now;
        if (counters != NULL) {
            counters[HELLO_C_INCREASES]++;
        }
    }
    results->rate = ctx[HELLO_W_RATE];
}
