/*
 * doca_failed_param.c - test firmware for issue 23 defect 7 ("a failed init_param must not show as
 * a declared parameter"). Its doca_pcc_dev_user_init declares one algorithm with three parameters
 * and IGNORES every return value, as careless user code does:
 *   param 0 "good_lo": default 10 in [1, 100]            -> DOCA_PCC_DEV_STATUS_OK, declared
 *   param 1 "bad_default": default 500 above max 100     -> DOCA_PCC_DEV_STATUS_FAIL, not declared
 *   param 2 "good_hi": default 7 in [7, 9]               -> DOCA_PCC_DEV_STATUS_OK, declared
 *   counter 0 "calls", then counter 99 (past the 16 the runtime keeps) -> the second fails
 * The emulator must list parameters 0 and 2 only, and report the two failed set-up calls (one line
 * each, counted). The algorithm leaves the rate alone.
 */
#include <doca_pcc_dev.h>

static const char desc[] = "test firmware: a failed init_param ignored";
static const char p0[] = "good_lo: declared";
static const char p1[] = "bad_default: default above max, must not be declared";
static const char p2[] = "good_hi: declared";
static const char c0[] = "calls: doca_pcc_dev_user_algo calls";
static const char c99[] = "beyond: counter id past the table";

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0xF1,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, 3, 1);
    /* (algo, id, default, max, min, permissions, desc size, desc address): returns ignored */
    doca_pcc_dev_algo_init_param(0, 0, 10, 100, 1, 1, sizeof(p0), (uint64_t)(uintptr_t)p0);
    doca_pcc_dev_algo_init_param(0, 1, 500, 100, 1, 1, sizeof(p1), (uint64_t)(uintptr_t)p1);
    doca_pcc_dev_algo_init_param(0, 2, 7, 9, 7, 1, sizeof(p2), (uint64_t)(uintptr_t)p2);
    doca_pcc_dev_algo_init_counter(0, 0, 0xFFFFFFFFu, 1, sizeof(c0), (uint64_t)(uintptr_t)c0);
    doca_pcc_dev_algo_init_counter(0, 99, 0xFFFFFFFFu, 1, sizeof(c99), (uint64_t)(uintptr_t)c99);
    doca_pcc_dev_init_algo_slot(0, 0, 0, 1);
    *disable_event_bitmask = 0;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)event;
    (void)results;
    uint32_t *counters = doca_pcc_dev_get_counters(0, attr->algo_slot);
    if (counters != 0) {
        counters[0]++;
    }
}
