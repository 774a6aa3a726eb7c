/*
 * doca_pcc_dev_common.h - common types of the DOCA PCC device API, as nicsim implements it.
 * Written for nicsim from the public description of the API's names and meaning
 * (not copied from NVIDIA's headers). Layouts: firmware/ABI.md.
 */
#ifndef DOCA_PCC_DEV_COMMON_H
#define DOCA_PCC_DEV_COMMON_H

#include <stdint.h>
#include <stddef.h>
#include "nicsim_pcc_abi.h"

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#define DOCA_PCC_DEV_MAX_NUM_PORTS NICSIM_PCC_MAX_PORTS
#define DOCA_PCC_DEV_MAX_NUM_USER_SLOTS NICSIM_PCC_MAX_SLOTS
#define DOCA_PCC_DEV_MAX_NUM_ALGOS NICSIM_PCC_MAX_ALGOS
#define DOCA_PCC_DEV_MAX_NUM_PARAMS NICSIM_PCC_MAX_PARAMS
#define DOCA_PCC_DEV_MAX_NUM_COUNTERS NICSIM_PCC_MAX_COUNTERS
#define DOCA_PCC_DEV_DEFAULT_ALGO_SLOT NICSIM_PCC_DEFAULT_SLOT

/** Line rate as a rate result: 1 << 20 (results are 20-bit fractions of line rate). */
#define DOCA_PCC_DEV_MAX_RATE (1u << 20)

/** Status of the set-up and parameter calls. */
typedef enum {
    DOCA_PCC_DEV_STATUS_OK = 0,
    DOCA_PCC_DEV_STATUS_FAIL = 1,
} doca_pcc_dev_error_t;

/** 48 bytes of per-flow state, zero when the flow is new (12 little-endian words). */
typedef struct {
    uint32_t data[12];
} doca_pcc_dev_algo_ctxt_t;

/**
 * Attributes of the event's flow and slot (mailbox bytes 80..111). algo_slot and overload are
 * the DOCA fields; the rest are nicsim extensions (nicsim_pcc.h has getters).
 */
typedef struct {
    uint32_t algo_slot : 4;
    uint32_t overload : 1;
    uint32_t reserved_bits : 27;
    uint32_t mtu_bytes;
    uint64_t line_rate_bps;
    uint32_t base_rtt_ns;
    uint32_t initial_psn;
    uint32_t now_ns;
    uint32_t reserved;
} doca_pcc_dev_attr_t;

/**
 * What the algorithm asks for (mailbox bytes 112..143). rate and rtt_req are DOCA's; the
 * emulator pre-fills rate with NICSIM_PCC_RATE_UNCHANGED and clamps any other value to
 * [1, DOCA_PCC_DEV_MAX_RATE]. The rest are nicsim extensions (nicsim_pcc.h).
 */
typedef struct {
    uint32_t rate;
    uint32_t rtt_req;
    uint64_t window_bytes;
    uint32_t timer_ns;
    uint32_t fast_start_packets;
    uint64_t reserved;
} doca_pcc_dev_results_t;

/** Description of one algorithm for doca_pcc_dev_algo_init_metadata. */
struct doca_pcc_dev_algo_meta_data {
    uint32_t algo_id;
    uint32_t algo_major_version;
    uint32_t algo_minor_version;
    uint32_t algo_desc_size;
    uint64_t algo_desc_addr;
};

#endif
