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
#include "doca_version.h"

/** DOCA's: the attribute only (no static, no inline); a header function written with it is an
 * ordinary external definition (Addendum A.2). */
#ifndef ALWAYS_INLINE
#define ALWAYS_INLINE __attribute__((always_inline))
#endif
/** DOCA's: static inline plus always_inline, safe in shared headers (Addendum A.2). */
#ifndef FORCE_INLINE
#define FORCE_INLINE static inline __attribute__((always_inline))
#endif

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/** 4 on BF3, as a signed int as in DOCA (so `int p < DOCA_PCC_DEV_MAX_NUM_PORTS` does not warn). */
#define DOCA_PCC_DEV_MAX_NUM_PORTS ((int)NICSIM_PCC_MAX_PORTS)
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

/*
 * NIC port counters and port queries (Addendum A.3; DOCA marks them experimental). A counter ID has
 * the logical port in bits 0-3, the counter type in bits 4-7, the plane (0 on BF3) in bits 8-11 and
 * bit 24 set; the 2.x fixed IDs are the same without bit 24, and nicsim accepts both.
 */
#define DOCA_PCC_DEV_GET_PORT_COUNTER_ID(port, type, plane) \
    ((uint32_t)((1u << 24) | (((uint32_t)(plane) & 0xFu) << 8) | (((uint32_t)(type) & 0xFu) << 4) \
                | ((uint32_t)(port) & 0xFu)))

/** Counter types. nicsim: both count whole bytes of frames (A.12 leaves RX units open). */
typedef enum {
#if !NICSIM_DOCA_AT_LEAST(3, 3)
    DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES = 1,
#elif NICSIM_DOCA_REMOVED_NAMES && !defined(DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES)
    /* gone from the 3.3 headers: using it is an error that names the flag (unless the program
     * defined it as a macro itself) */
    DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES NICSIM_DOCA_REMOVED("removed in DOCA 3.3; build with DOCA_VERSION=3.2") = 1,
#endif
    DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES = 2,
} doca_pcc_dev_nic_port_counter_types_t;

#if !NICSIM_DOCA_AT_LEAST(3, 0)
/** The 2.x fixed counter IDs (type << 4 | port). */
typedef enum {
    DOCA_PCC_DEV_NIC_COUNTER_PORT0_RX_BYTES = 0x10,
    DOCA_PCC_DEV_NIC_COUNTER_PORT1_RX_BYTES = 0x11,
    DOCA_PCC_DEV_NIC_COUNTER_PORT2_RX_BYTES = 0x12,
    DOCA_PCC_DEV_NIC_COUNTER_PORT3_RX_BYTES = 0x13,
    DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES = 0x20,
    DOCA_PCC_DEV_NIC_COUNTER_PORT1_TX_BYTES = 0x21,
    DOCA_PCC_DEV_NIC_COUNTER_PORT2_TX_BYTES = 0x22,
    DOCA_PCC_DEV_NIC_COUNTER_PORT3_TX_BYTES = 0x23,
} doca_pcc_dev_nic_counter_ids_t;
#elif NICSIM_DOCA_REMOVED_NAMES
/*
 * The 3.x headers have no fixed IDs. A 2.x program that uses one stops with a single error naming
 * the release and the flag, instead of the bare "undeclared" the 3.x headers give; the program does
 * not build (it would not build against NVIDIA's 3.x headers either). A name the program defined as
 * a macro before including this header (its own compatibility shim) is left to the program.
 */
#define NICSIM_DOCA_FIXED_ID_REMOVED \
    NICSIM_DOCA_REMOVED("fixed counter ID removed after DOCA 2.x; build with DOCA_VERSION=2.9, or use " \
                        "DOCA_PCC_DEV_GET_PORT_COUNTER_ID(port, type, 0)")
typedef enum {
    NICSIM_DOCA_FIXED_IDS_NONE_ = 0, /* keeps the list non-empty when a program defines them all */
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT0_RX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT0_RX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x10,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT1_RX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT1_RX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x11,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT2_RX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT2_RX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x12,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT3_RX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT3_RX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x13,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x20,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT1_TX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT1_TX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x21,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT2_TX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT2_TX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x22,
#endif
#ifndef DOCA_PCC_DEV_NIC_COUNTER_PORT3_TX_BYTES
    DOCA_PCC_DEV_NIC_COUNTER_PORT3_TX_BYTES NICSIM_DOCA_FIXED_ID_REMOVED = 0x23,
#endif
} doca_pcc_dev_nic_counter_ids_t NICSIM_DOCA_REMOVED("removed after DOCA 2.x; build with DOCA_VERSION=2.9");
#undef NICSIM_DOCA_FIXED_ID_REMOVED
#endif

/**
 * Registers the counters doca_pcc_dev_nic_counters_sample reads: values[i] receives counter
 * counter_ids[i]. Both arrays are kept by pointer (global or heap memory). One configuration per
 * program; a later call replaces it.
 */
void doca_pcc_dev_nic_counters_config(uint32_t *counter_ids, uint32_t num_counters, uint32_t *values);

/**
 * Reads every configured counter now: free-running 32-bit byte counters of the simulated NIC's
 * port (wrapping). Before any config, or with an unknown ID, the call faults (DOCA: the process
 * crashes), which nicsim counts as a firmware fault.
 */
void doca_pcc_dev_nic_counters_sample(void);

/** @return bit mask of initialised logical ports (bit i = port i; nicsim NICs have port 0: 1) */
uint32_t doca_pcc_dev_get_logical_ports(void);

/** @return the port's speed, Gb/s (the scenario's host link rate), 0 for a port that does not exist */
uint32_t doca_pcc_dev_get_port_speed(uint32_t portid);

/** @return planes of the port: 1 (planes are a ConnectX-8 feature) */
uint32_t doca_pcc_dev_get_port_planes(uint32_t portid);

/**
 * Optional user callback: port portid changed state. nicsim calls it once per port of the mask
 * after doca_pcc_dev_user_init, before the first event.
 */
void doca_pcc_dev_user_port_info_changed(uint32_t portid);

/** Description of one algorithm for doca_pcc_dev_algo_init_metadata. */
struct doca_pcc_dev_algo_meta_data {
    uint32_t algo_id;
    uint32_t algo_major_version;
    uint32_t algo_minor_version;
    uint32_t algo_desc_size;
    uint64_t algo_desc_addr;
};

#endif
