/*
 * doca_pcc_dev_algo_access.h - declaring algorithms, parameters and counters, and reaching
 * them at run time (DOCA PCC device API names, nicsim implementation in runtime/rt.c).
 * Written for nicsim, not copied from NVIDIA.
 */
#ifndef DOCA_PCC_DEV_ALGO_ACCESS_H
#define DOCA_PCC_DEV_ALGO_ACCESS_H

#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_event.h"

/**
 * Declares algorithm algo_idx (< DOCA_PCC_DEV_MAX_NUM_ALGOS) with param_num parameters and
 * counter_num counters. FAIL when an index or count is out of range or user_def is NULL.
 */
doca_pcc_dev_error_t doca_pcc_dev_algo_init_metadata(uint32_t algo_idx,
                                                     const struct doca_pcc_dev_algo_meta_data *user_def,
                                                     uint32_t param_num, uint32_t counter_num);

/**
 * Declares parameter param_id of algorithm algo_idx. nicsim names it after the description's
 * leading "name:" (ABI.md section 6). FAIL when out of range or default outside [min, max].
 */
doca_pcc_dev_error_t doca_pcc_dev_algo_init_param(uint32_t algo_idx, uint32_t param_id, uint32_t default_value,
                                                  uint32_t max_value, uint32_t min_value, uint32_t permissions,
                                                  uint32_t desc_size, uint64_t desc_addr);

/** Declares counter counter_id of algorithm algo_idx (named like parameters). */
doca_pcc_dev_error_t doca_pcc_dev_algo_init_counter(uint32_t algo_idx, uint32_t counter_id, uint32_t max_value,
                                                    uint32_t permissions, uint32_t desc_size, uint64_t desc_addr);

/** Puts algorithm algo_idx into slot algo_slot of port port_num (enable 0 clears the slot). */
doca_pcc_dev_error_t doca_pcc_dev_init_algo_slot(uint32_t port_num, uint32_t algo_slot, uint32_t algo_idx,
                                                 uint32_t enable);

/** @return the parameter values of a slot (nicsim_pcc_params[port][slot]); NULL when out of range */
uint32_t *doca_pcc_dev_get_algo_params(uint32_t port_num, uint32_t algo_slot);

/** @return the calling thread's counters of a slot; NULL when out of range */
uint32_t *doca_pcc_dev_get_counters(uint32_t port_num, uint32_t algo_slot);

/** @return the algorithm index of a slot (0 when the slot is empty) */
uint32_t doca_pcc_dev_get_algo_index(uint32_t port_num, uint32_t algo_slot);

/**
 * The NIC's built-in algorithm, for slot 15 and slots the program does not own (its
 * doca_pcc_dev_user_algo calls this): DCQCN with the Mellanox defaults, in firmware
 * (runtime/dcqcn_engine.c; the context holds DCQCN's state, so a flow must stay with it).
 */
void doca_pcc_dev_default_internal_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                                        const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results);

#endif
