/* loop_on_cnp.c - test firmware: loops forever on every CNP; other events leave the rate alone. */
#define TESTFW_NAME "loops forever on CNP"
#include "testfw_common.h"

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)attr;
    (void)results;
    if (doca_pcc_dev_get_ev_attr(event).ev_type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        for (volatile uint32_t i = 0;; i++) {
        }
    }
}
