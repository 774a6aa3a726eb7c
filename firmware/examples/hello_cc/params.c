/*
 * params.c - hello_cc's load-time declarations: the algorithm, its parameters and counters,
 * and its slot on every port (DOCA PCC names only).
 */
#include <doca_pcc_dev.h>
#include "hello_cc.h"

static const char desc[] = "hello_cc: halve on CNP, add 1 % per recovery period on TX (nicsim example)";
static const char p_decrease[] = "decrease: fraction of the rate kept on a CNP, 16.16";
static const char p_ai[] = "ai: additive increase per recovery period, 20-bit fraction of line rate";
static const char p_recovery[] = "recovery_ns: time between a cut or increase and the next increase";
static const char p_min[] = "min_rate: lowest rate, 20-bit fraction of line rate";
static const char c_cuts[] = "hello_cuts: rate cuts";
static const char c_incs[] = "hello_increases: rate increases";

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0x4E110,
        .algo_major_version = 0,
        .algo_minor_version = 1,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(HELLO_ALGO_IDX, &meta, HELLO_P_NUM, HELLO_C_NUM);
    doca_pcc_dev_algo_init_param(HELLO_ALGO_IDX, HELLO_P_DECREASE, 1u << 15, 1u << 16, 1, 1, sizeof(p_decrease),
                                 (uint64_t)(uintptr_t)p_decrease);
    doca_pcc_dev_algo_init_param(HELLO_ALGO_IDX, HELLO_P_AI, 10486, DOCA_PCC_DEV_MAX_RATE, 1, 1, sizeof(p_ai),
                                 (uint64_t)(uintptr_t)p_ai);
    doca_pcc_dev_algo_init_param(HELLO_ALGO_IDX, HELLO_P_RECOVERY_NS, 55000, 1u << 30, 1, 1, sizeof(p_recovery),
                                 (uint64_t)(uintptr_t)p_recovery);
    doca_pcc_dev_algo_init_param(HELLO_ALGO_IDX, HELLO_P_MIN_RATE, 1024, DOCA_PCC_DEV_MAX_RATE, 1, 1, sizeof(p_min),
                                 (uint64_t)(uintptr_t)p_min);
    doca_pcc_dev_algo_init_counter(HELLO_ALGO_IDX, HELLO_C_CUTS, 0xFFFFFFFFu, 0, sizeof(c_cuts),
                                   (uint64_t)(uintptr_t)c_cuts);
    doca_pcc_dev_algo_init_counter(HELLO_ALGO_IDX, HELLO_C_INCREASES, 0xFFFFFFFFu, 0, sizeof(c_incs),
                                   (uint64_t)(uintptr_t)c_incs);
    for (uint32_t port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, HELLO_ALGO_IDX, 1);
    }
    *disable_event_bitmask = 1u << DOCA_PCC_DEV_EVNT_ROCE_ACK;
}
