/*
 * doca_pcc_dev.h - the DOCA PCC device API as nicsim implements it: include this from an
 * algorithm. Written for nicsim from the public description of the API (not copied from
 * NVIDIA's headers). The algorithm provides the three functions declared here.
 */
#ifndef DOCA_PCC_DEV_H
#define DOCA_PCC_DEV_H

#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_event.h"
#include "doca_pcc_dev_algo_access.h"
#include "doca_pcc_dev_utils.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Handles one event of one flow and writes results. Called per event. */
void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results);

/**
 * Called once at load: declare algorithms, parameters and counters, fill slots; set bit
 * 1 << type in *disable_event_bitmask to stop events of that type being delivered.
 */
void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask);

/**
 * Host parameter change: validate and copy param_num values from new_param_values into
 * params[param_id_base ...]. Optional: the runtime's weak default checks the declared ranges.
 */
doca_pcc_dev_error_t doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot,
                                                       uint32_t param_id_base, uint32_t param_num,
                                                       const uint32_t *new_param_values, uint32_t *params);

/** The remote side's RTT-probe handler (notification point); nicsim does not call it. */
void doca_pcc_dev_np_user_packet_handler(void *in, void *out);

#ifdef __cplusplus
}
#endif

#endif
