/*
 * wild_store.c - test firmware: on every CNP stores to 0x20000000, between the thread area and
 * context memory, where nothing is mapped (firmware/ABI.md section 2): a store access fault.
 */
#define TESTFW_NAME "store outside its memory on CNP"
#include "testfw_common.h"

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)attr;
    (void)results;
    if (doca_pcc_dev_get_ev_attr(event).ev_type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        *(volatile uint32_t *)(uintptr_t)0x20000000u = 0xDEADBEEF;
    }
}
