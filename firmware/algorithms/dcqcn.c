/*
 * dcqcn.c - DCQCN reaction point, the C port of nicsim's Java DcqcnAlgorithm (microcode,
 * dev.nicsim.microcode.algorithms): it declares the same parameters (names, raw defaults and
 * ranges of DcqcnProvider) and counters (same names, same order) and runs the runtime's DCQCN
 * engine (runtime/dcqcn_engine.c, nicsim_dcqcn.h) with its slot's parameter values, so both give
 * identical results for identical events. The same engine with the default values is the NIC's
 * built-in algorithm (doca_pcc_dev_default_internal_algo). the RoCE ECN/DCQCN article §7.
 */
#include "nicsim_pcc.h"
#include "nicsim_dcqcn.h"
#include "port_util.h"

#define FXP NICSIM_PCC_PARAM_FXP16
#define INT NICSIM_PCC_PARAM_INTEGER

static const struct port_param PARAMS[NICSIM_DCQCN_P_COUNT] = {
    {"g: alpha gain: alpha = (1-g) alpha + g if a CNP arrived in the period; 1 - DCE_TCP_G/1024, the RoCE ECN/DCQCN article §7.1",
     NICSIM_DCQCN_DEFAULT_G, 1, 65536, FXP, "fraction"},
    {"initial_alpha: alpha set on the first CNP (INITIAL_ALPHA_VALUE), the RoCE ECN/DCQCN article §7.1",
     NICSIM_DCQCN_DEFAULT_INITIAL_ALPHA, 0, 65536, FXP,
     "fraction"},
    {"alpha_update_period_ns: alpha update period (DCE_TCP_RTT), the RoCE ECN/DCQCN article §7.1",
     NICSIM_DCQCN_DEFAULT_ALPHA_UPDATE_PERIOD_NS, 1, 1u << 30, INT, "ns"},
    {"rate_reduce_monitor_period_ns: at most one rate decrease per period (RATE_REDUCE_MONITOR_PERIOD), the RoCE ECN/DCQCN article §7.2",
     NICSIM_DCQCN_DEFAULT_RATE_REDUCE_MONITOR_PERIOD_NS, 1, 1u << 30, INT, "ns"},
    {"rate_on_first_cnp: current and target rate set on the first CNP (RATE_TO_SET_ON_FIRST_CNP)",
     NICSIM_DCQCN_DEFAULT_RATE_ON_FIRST_CNP, 1, 65536,
     FXP, "fraction of line rate"},
    {"rpg_gd: decrease Rc by alpha_1024 / 2^gd (RPG_GD; 11 = alpha/2), the RoCE ECN/DCQCN article §7.2",
     NICSIM_DCQCN_DEFAULT_RPG_GD, 0, 15, INT, "log2"},
    {"rpg_min_dec_fac: a decrease keeps at least this percentage of Rc (RPG_MIN_DEC_FAC)",
     NICSIM_DCQCN_DEFAULT_RPG_MIN_DEC_FAC, 0, 100, INT, "%"},
    {"rpg_min_rate_mbps: floor of the current rate (RPG_MIN_RATE)",
     NICSIM_DCQCN_DEFAULT_RPG_MIN_RATE_MBPS, 1, 2000000, INT, "Mb/s"},
    {"rpg_time_reset_ns: rate-increase timer period (RPG_TIME_RESET), the RoCE ECN/DCQCN article §7.3",
     NICSIM_DCQCN_DEFAULT_RPG_TIME_RESET_NS, 1, 1u << 30, INT, "ns"},
    {"rpg_byte_reset_bytes: rate-increase byte counter, 0 = disabled (RPG_BYTE_RESET), the RoCE ECN/DCQCN article §7.3",
     NICSIM_DCQCN_DEFAULT_RPG_BYTE_RESET_BYTES, 0,
     1u << 30, INT, "bytes"},
    {"rpg_threshold: F: fast-recovery stages before additive increase (RPG_THRESHOLD), the RoCE ECN/DCQCN article §7.3",
     NICSIM_DCQCN_DEFAULT_RPG_THRESHOLD, 0, 1024,
     INT, "stages"},
    {"rpg_ai_rate_mbps: additive increase of the target rate (RPG_AI_RATE), the RoCE ECN/DCQCN article §7.3",
     NICSIM_DCQCN_DEFAULT_RPG_AI_RATE_MBPS, 0, 1000000, INT,
     "Mb/s"},
    {"rpg_hai_rate_mbps: hyper increase of the target rate (RPG_HAI_RATE), the RoCE ECN/DCQCN article §7.3",
     NICSIM_DCQCN_DEFAULT_RPG_HAI_RATE_MBPS, 0, 1000000, INT,
     "Mb/s"},
    {"clamp_tgt_rate: 1: Rt = Rc on every decrease (CLAMP_TGT_RATE)",
     NICSIM_DCQCN_DEFAULT_CLAMP_TGT_RATE, 0, 1, INT, "flag"},
    {"clamp_tgt_rate_after_time_inc: 1: Rt = Rc on a decrease after a timer or byte increase (CLAMP_TGT_RATE_AFTER_TIME_INC)",
     NICSIM_DCQCN_DEFAULT_CLAMP_TGT_RATE_AFTER_TIME_INC, 0, 1, INT, "flag"},
    {"hai_scaling: 0: Rt += HAI per hyper stage (Mellanox, ns-3); 1: Rt += i x HAI at the i-th hyper stage (QCN)",
     NICSIM_DCQCN_DEFAULT_HAI_SCALING,
     0, 1, INT, "flag"},
};

static const char *const COUNTERS[NICSIM_DCQCN_C_COUNT] = {
    "dcqcn_cnp_handled: CNPs handled",
    "dcqcn_first_cnp: flows whose rate limiter started",
    "dcqcn_rate_decreases: rate decreases",
    "dcqcn_timer_increase_events: increase-timer expiries",
    "dcqcn_byte_increase_events: byte-counter expiries",
    "dcqcn_fast_recovery: fast-recovery increases",
    "dcqcn_additive_increase: additive increases",
    "dcqcn_hyper_increase: hyper increases",
};

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    port_declare(0xDC0C, "dcqcn: DCQCN reaction point, the RoCE ECN/DCQCN article §7 (C port of nicsim's Java handler)", PARAMS,
                 NICSIM_DCQCN_P_COUNT, COUNTERS, NICSIM_DCQCN_C_COUNT);
    *disable_event_bitmask = 0;
}

void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt, const doca_pcc_dev_event_t *event,
                               const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)event;
    (void)attr;
    results->rate = NICSIM_RATE_ONE;
    results->window_bytes = NICSIM_PCC_WINDOW_UNLIMITED;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    uint32_t port = event->port_num;
    nicsim_dcqcn_event(algo_ctxt->data, doca_pcc_dev_get_algo_params(port, attr->algo_slot),
                       doca_pcc_dev_get_counters(port, attr->algo_slot), event, attr, results);
}
