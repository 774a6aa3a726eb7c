/* wide_results.c - test firmware for issue 23 defect 3: results whose top bit is set.
 * ACK: rate 0xFFFFFFF0 (above 1 << 20: clamped to line rate);
 * CNP: window 2^63 (clamped to the largest window);
 * TX:  timer 2^31 ns and fast start 2^31 + 1 packets (both clamped to 2^31 - 1). */
#define TESTFW_NAME "wide results"
#include "testfw_common.h" /* firmware/testfw, given by INCLUDES=-I */

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)attr;
    switch (doca_pcc_dev_get_ev_attr(event).ev_type) {
    case DOCA_PCC_DEV_EVNT_ROCE_ACK:
        results->rate = 0xFFFFFFF0u;
        break;
    case DOCA_PCC_DEV_EVNT_ROCE_CNP:
        results->window_bytes = 0x8000000000000000ull;
        break;
    case DOCA_PCC_DEV_EVNT_ROCE_TX:
        results->timer_ns = 0x80000000u;
        results->fast_start_packets = 0x80000001u;
        break;
    default:
        break;
    }
}
