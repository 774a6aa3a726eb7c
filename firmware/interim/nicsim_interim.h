/*
 * Interim runtime header of the Java side (branch firmware-java) for firmware/ABI as proposed in
 * /work/tools/fw-abi-requests.md: just enough of the DOCA PCC device API (names and meaning from
 * the project's fact sheet) to build the interim DCQCN port the firmware scenarios run until the
 * firmware-c branch's runtime and ports replace it. Written independently; nothing copied.
 */
#ifndef NICSIM_INTERIM_H
#define NICSIM_INTERIM_H
#include <stdint.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

typedef struct { uint32_t data[12]; } doca_pcc_dev_algo_ctxt_t;
typedef enum { DOCA_PCC_DEV_STATUS_OK = 0, DOCA_PCC_DEV_STATUS_FAIL = 1 } doca_pcc_dev_error_t;

/* the mailbox event: Java's 64-byte PccEventLayout record (little-endian, Java type codes) */
typedef struct {
    uint8_t type, subtype, port, flags;
    uint32_t flow_id, sn, timestamp, first_timestamp, first_sn, num_coalesced, tx_bytes, tx_packets;
    uint32_t rtt_req_send, rtt_req_recv, rtt_resp_send, reserved[4];
} nicsim_event_t;
enum { NICSIM_EV_TX = 0, NICSIM_EV_ACK = 1, NICSIM_EV_NACK = 2, NICSIM_EV_CNP = 3, NICSIM_EV_RTT = 4, NICSIM_EV_TIMER = 5 };

struct nicsim_mailbox {
    nicsim_event_t event;
    uint64_t line_rate_bps;
    uint32_t mtu_bytes, base_rtt_ns, initial_psn, flags, algo_slot, thread_rank;
    uint64_t context;
    uint32_t now_ns, pad;
    int32_t rate;
    uint32_t rtt_req;
    int64_t window_bytes;
    int32_t timer_ns;
    int32_t fast_start_packets;
    uint8_t reserved[56];
};
extern struct nicsim_mailbox nicsim_mailbox;

struct doca_pcc_dev_algo_meta_data {
    uint32_t algo_id, algo_major_version, algo_minor_version, algo_desc_size;
    uint64_t algo_desc_addr;
};

doca_pcc_dev_error_t doca_pcc_dev_algo_init_metadata(uint32_t algo_idx, const struct doca_pcc_dev_algo_meta_data *user_def,
                                                     uint32_t param_num, uint32_t counter_num);
doca_pcc_dev_error_t doca_pcc_dev_algo_init_param(uint32_t algo_idx, uint32_t param_id, uint32_t default_value, uint32_t max_value,
                                                  uint32_t min_value, uint32_t permissions, uint32_t desc_size, uint64_t desc_addr);
doca_pcc_dev_error_t doca_pcc_dev_algo_init_counter(uint32_t algo_idx, uint32_t counter_id, uint32_t max_value,
                                                    uint32_t permissions, uint32_t desc_size, uint64_t desc_addr);
doca_pcc_dev_error_t doca_pcc_dev_init_algo_slot(uint32_t port_num, uint32_t algo_slot, uint32_t algo_idx, uint32_t enable);
uint32_t *doca_pcc_dev_get_algo_params(uint32_t port_num, uint32_t algo_slot);
uint32_t *doca_pcc_dev_get_counters(uint32_t port_num, uint32_t algo_slot);

/* the algorithm provides these two, and optionally the flow start (Java's initFlow) */
void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask);
void nicsim_algo_event(doca_pcc_dev_algo_ctxt_t *ctx, const nicsim_event_t *ev, struct nicsim_mailbox *mb);
void nicsim_user_flow_init(doca_pcc_dev_algo_ctxt_t *ctx, struct nicsim_mailbox *mb) __attribute__((weak));
#endif
