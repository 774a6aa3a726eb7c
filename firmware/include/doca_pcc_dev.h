/*
 * doca_pcc_dev.h - the DOCA PCC device API as nicsim implements it: include this from an
 * algorithm. Written for nicsim from the public description of the API (not copied from
 * NVIDIA's headers). The reaction-point algorithm provides the functions declared here; NP
 * programs include doca_pcc_np_dev.h instead.
 */
#ifndef DOCA_PCC_DEV_H
#define DOCA_PCC_DEV_H

#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_utils.h"
#include "doca_pcc_dev_services.h"
#include "doca_pcc_dev_event.h"
#include "doca_pcc_dev_algo_access.h"

/** log2 of DOCA_PCC_DEV_MAX_RATE (rates are 20-bit fractions of line rate). */
#define DOCA_PCC_DEV_LOG_MAX_RATE 20
/** DOCA's default start rate: max(DOCA_PCC_DEV_MAX_RATE >> 8, 1) = 4096. */
#define DOCA_PCC_DEV_DEFAULT_RATE ((DOCA_PCC_DEV_MAX_RATE >> 8) > 1 ? (DOCA_PCC_DEV_MAX_RATE >> 8) : 1)
/** Slot and algorithm index of the built-in algorithm (doca_pcc_dev_default_internal_algo). */
#define DOCA_PCC_DEV_ALGO_SLOT_INTERNAL 0xF
#define DOCA_PCC_DEV_ALGO_INDEX_INTERNAL 0xF
/**
 * Whether bit 31 (DOCA_PCC_DEV_EVNT_ROCE_TX_FOR_ACK_NACK) of the user_init disable mask is honoured:
 * 0 on the BlueField-3 DPA, which nicsim models (Addendum A.2).
 */
#define DOCA_PCC_DEV_ACK_NACK_TX_EVENT_DISABLED_SUPPORTED 0

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

#ifdef __cplusplus
}
#endif

#endif
