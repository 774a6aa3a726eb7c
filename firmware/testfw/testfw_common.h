/*
 * testfw_common.h - shared load-time declarations of the bad-firmware test ELFs (for the
 * emulator's fault tests, issue 12 "Bad firmware"): one algorithm, no parameters, slot 0.
 */
#ifndef TESTFW_COMMON_H
#define TESTFW_COMMON_H

#include <doca_pcc_dev.h>

static const char testfw_desc[] = "test firmware: " TESTFW_NAME;

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0xBAD,
        .algo_major_version = 0,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(testfw_desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)testfw_desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, 0, 0);
    for (uint32_t port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 0;
}

#endif
