/*
 * testfw_doca_dispatch.h - shared body of the DOCA-dispatch test ELFs (issue 19 section 2): a
 * DOCA program whose doca_pcc_dev_user_init declares nothing and never calls
 * doca_pcc_dev_init_algo_slot. DOCA calls doca_pcc_dev_user_algo for every event anyway (with
 * attr->algo_slot 15, the internal slot); this one counts each call in testfw_calls[event type]
 * (read by the Java tests from the image), and then, as NVIDIA's sample does, runs its own
 * algorithm in slot 0 (it owns no other; here: none runs, it has none) and hands every other slot
 * to doca_pcc_dev_default_internal_algo. With TESTFW_LOOP_ON_CNP it loops forever on a CNP first.
 */
#ifndef TESTFW_DOCA_DISPATCH_H
#define TESTFW_DOCA_DISPATCH_H

#include <doca_pcc_dev.h>

/** Calls of doca_pcc_dev_user_algo by DOCA event type (index = ev_type, 0..31). */
uint64_t testfw_calls[32];

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    *disable_event_bitmask = 0;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t type = doca_pcc_dev_get_ev_attr(event).ev_type;
    __atomic_fetch_add(&testfw_calls[type & 31], 1, __ATOMIC_RELAXED);
#ifdef TESTFW_LOOP_ON_CNP
    if (type == DOCA_PCC_DEV_EVNT_ROCE_CNP) {
        for (volatile uint32_t i = 0;; i++) {
        }
    }
#endif
    switch (attr->algo_slot) {
    case 0:
        break; /* this program's own algorithm would run here; it declares none */
    default:
        doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
        break;
    }
}

#endif
