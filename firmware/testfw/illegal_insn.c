/* illegal_insn.c - test firmware: executes an illegal instruction (all-zero halfword) on every CNP. */
#define TESTFW_NAME "illegal instruction on CNP"
#include "testfw_common.h"

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)attr;
    (void)results;
    if (doca_pcc_dev_get_ev_attr(event).ev_type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        __asm__ volatile(".2byte 0x0000");
    }
}
