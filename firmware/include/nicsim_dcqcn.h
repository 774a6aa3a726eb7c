/*
 * nicsim_dcqcn.h - the DCQCN reaction-point engine of the firmware runtime (runtime/dcqcn_engine.c):
 * the NIC's built-in algorithm behind doca_pcc_dev_default_internal_algo (with the defaults below,
 * the Mellanox/NVIDIA ones that nicsim's Java DcqcnProvider declares) and the core of the shipped
 * C port algorithms/dcqcn.c (with its slot's parameters). Context layout, parameter ids and
 * counter ids are those of the Java DcqcnAlgorithm, so both give identical results for identical
 * events (firmware/tests/README.md derives the numbers). The RoCE ECN/DCQCN article section 7.
 */
#ifndef NICSIM_DCQCN_H
#define NICSIM_DCQCN_H

#include "doca_pcc_dev.h"

/* parameter ids (DcqcnProvider), the order of the parameter array the engine reads */
enum { NICSIM_DCQCN_P_G, NICSIM_DCQCN_P_INITIAL_ALPHA, NICSIM_DCQCN_P_ALPHA_UPDATE_PERIOD_NS,
       NICSIM_DCQCN_P_RATE_REDUCE_MONITOR_PERIOD_NS, NICSIM_DCQCN_P_RATE_ON_FIRST_CNP, NICSIM_DCQCN_P_RPG_GD,
       NICSIM_DCQCN_P_RPG_MIN_DEC_FAC, NICSIM_DCQCN_P_RPG_MIN_RATE_MBPS, NICSIM_DCQCN_P_RPG_TIME_RESET_NS,
       NICSIM_DCQCN_P_RPG_BYTE_RESET_BYTES, NICSIM_DCQCN_P_RPG_THRESHOLD, NICSIM_DCQCN_P_RPG_AI_RATE_MBPS,
       NICSIM_DCQCN_P_RPG_HAI_RATE_MBPS, NICSIM_DCQCN_P_CLAMP_TGT_RATE, NICSIM_DCQCN_P_CLAMP_TGT_RATE_AFTER_TIME_INC,
       NICSIM_DCQCN_P_HAI_SCALING, NICSIM_DCQCN_P_COUNT };

/* counter ids (DcqcnAlgorithm's counters, same names and order) */
enum { NICSIM_DCQCN_C_CNP, NICSIM_DCQCN_C_FIRST_CNP, NICSIM_DCQCN_C_DECREASES, NICSIM_DCQCN_C_TIMER_EVENTS,
       NICSIM_DCQCN_C_BYTE_EVENTS, NICSIM_DCQCN_C_FAST_RECOVERY, NICSIM_DCQCN_C_ADDITIVE, NICSIM_DCQCN_C_HYPER,
       NICSIM_DCQCN_C_COUNT };

/* raw defaults (16.16 for g, initial_alpha and rate_on_first_cnp), DcqcnProvider's */
#define NICSIM_DCQCN_DEFAULT_G 320u                           /* 5/1024 */
#define NICSIM_DCQCN_DEFAULT_INITIAL_ALPHA 65472u             /* 1023/1024 */
#define NICSIM_DCQCN_DEFAULT_ALPHA_UPDATE_PERIOD_NS 1000u
#define NICSIM_DCQCN_DEFAULT_RATE_REDUCE_MONITOR_PERIOD_NS 4000u
#define NICSIM_DCQCN_DEFAULT_RATE_ON_FIRST_CNP 65536u         /* 1.0 */
#define NICSIM_DCQCN_DEFAULT_RPG_GD 11u
#define NICSIM_DCQCN_DEFAULT_RPG_MIN_DEC_FAC 50u
#define NICSIM_DCQCN_DEFAULT_RPG_MIN_RATE_MBPS 1u
#define NICSIM_DCQCN_DEFAULT_RPG_TIME_RESET_NS 300000u
#define NICSIM_DCQCN_DEFAULT_RPG_BYTE_RESET_BYTES 32767u
#define NICSIM_DCQCN_DEFAULT_RPG_THRESHOLD 1u
#define NICSIM_DCQCN_DEFAULT_RPG_AI_RATE_MBPS 5u
#define NICSIM_DCQCN_DEFAULT_RPG_HAI_RATE_MBPS 50u
#define NICSIM_DCQCN_DEFAULT_CLAMP_TGT_RATE 0u
#define NICSIM_DCQCN_DEFAULT_CLAMP_TGT_RATE_AFTER_TIME_INC 1u
#define NICSIM_DCQCN_DEFAULT_HAI_SCALING 0u

/** The defaults above as a parameter array (what doca_pcc_dev_default_internal_algo runs with). */
extern const uint32_t nicsim_dcqcn_default_params[NICSIM_DCQCN_P_COUNT];

/**
 * Handles one event of one flow: CNP, TX and nicsim TIMER events drive the reaction point; ACK,
 * NACK and RTT leave everything unchanged. A flow is inactive (full rate, results untouched) until
 * its first CNP.
 *
 * @param ctx      the flow's 12 context words (DcqcnAlgorithm.W_* layout)
 * @param params   NICSIM_DCQCN_P_COUNT raw parameter values
 * @param counters NICSIM_DCQCN_C_COUNT counters to increment, or NULL
 */
void nicsim_dcqcn_event(uint32_t *ctx, const uint32_t *params, uint32_t *counters, const doca_pcc_dev_event_t *event,
                        const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results);

#endif
