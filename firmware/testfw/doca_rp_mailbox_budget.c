/*
 * doca_rp_mailbox_budget.c - test firmware written from Addendum A.5: the host sets a per-NIC rate
 * budget through the mailbox (one little-endian 32-bit word: the rate in DOCA_PCC_DEV_MAX_RATE
 * units); the callback stores it, sets a ready flag behind a write fence, and answers with the
 * previous budget (4 bytes); any other request size is refused (FAIL, no reply). Until a budget
 * arrives events leave the rate alone; after it every event sets rate = budget.
 * Only DOCA names; no nicsim header.
 */
#include <doca_pcc_dev.h>

static const char desc[] = "mailbox budget: rate = host-set budget";
uint32_t budget;
volatile uint32_t budget_ready;

doca_pcc_dev_error_t doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
                                                      void *response, uint32_t *response_size)
{
    if (request_size != sizeof(uint32_t)) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    const uint8_t *r = (const uint8_t *)request;
    uint32_t previous = budget;
    budget = (uint32_t)r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
    budget_ready = 1;
    if (max_response_size >= sizeof(uint32_t)) {
        uint8_t *out = (uint8_t *)response;
        for (int i = 0; i < 4; i++) {
            out[i] = (uint8_t)(previous >> (8 * i));
        }
        *response_size = sizeof(uint32_t);
    }
    return DOCA_PCC_DEV_STATUS_OK;
}

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0xB0D,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, 0, 0);
    for (int port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 0;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    if (attr->algo_slot != 0) {
        doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
        return;
    }
    if (budget_ready) {
        results->rate = budget > DOCA_PCC_DEV_MAX_RATE ? DOCA_PCC_DEV_MAX_RATE : (budget > 0 ? budget : 1);
    }
}
