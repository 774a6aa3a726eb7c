/*
 * nicsim_pcc_abi.h - the binary layout shared by the nicsim uNIC emulator (Java) and the
 * firmware runtime: memory map, mailbox offsets, ecall numbers, table layouts, limits.
 * firmware/ABI.md explains every number here; this header is the one definition.
 * Part of nicsim, written for it (not derived from any vendor header).
 */
#ifndef NICSIM_PCC_ABI_H
#define NICSIM_PCC_ABI_H

#define NICSIM_PCC_ABI_VERSION 1u

/* memory map */
#define NICSIM_PCC_IMAGE_BASE        0x00010000ul
#define NICSIM_PCC_THREADS_BASE      0x01000000ul
#define NICSIM_PCC_THREAD_SLOT_BYTES 0x1000ul
#define NICSIM_PCC_MAILBOX_BYTES     256u
#define NICSIM_PCC_CONTEXT_BASE      0x40000000ul

/* limits */
#define NICSIM_PCC_MAX_THREADS  256u
#define NICSIM_PCC_MAX_PORTS    4u
#define NICSIM_PCC_MAX_SLOTS    8u
#define NICSIM_PCC_MAX_ALGOS    8u
#define NICSIM_PCC_MAX_PARAMS   48u
#define NICSIM_PCC_MAX_COUNTERS 16u
#define NICSIM_PCC_DEFAULT_SLOT 15u

/* ecall numbers (a7) */
#define NICSIM_ECALL_DONE        0x4E00
#define NICSIM_ECALL_PRINT       0x4E01
#define NICSIM_ECALL_TRACE       0x4E02
#define NICSIM_ECALL_TRACE_FLUSH 0x4E03
#define NICSIM_ECALL_NIC_COUNTERS 0x4E04 /* a0 = ids, a1 = count, a2 = values; 0 or -22 (an unknown id) */
#define NICSIM_PRINT_MAX_BYTES   256u

/* mailbox offsets (bytes from the slot base) */
#define NICSIM_MB_EVENT      0u   /* 80 bytes, big-endian fields */
#define NICSIM_MB_ATTR       80u  /* 32 bytes */
#define NICSIM_MB_RESULTS    112u /* 32 bytes */
#define NICSIM_MB_CALL       144u
#define NICSIM_MB_THREAD_RANK 148u
#define NICSIM_MB_NOW_NS     152u
#define NICSIM_MB_NOW_US     160u
#define NICSIM_MB_STATUS     168u
/* service calls (call kinds 3..5), bytes 176..207 */
#define NICSIM_MB_ARG        176u /* port-info: the port; host mailbox: request bytes; NP: packet bytes */
#define NICSIM_MB_ARG2       180u /* host mailbox: max response bytes; NP: port of arrival */
#define NICSIM_MB_OUT_SIZE   184u /* host mailbox: response bytes the callback reported */
#define NICSIM_MB_RETURN     188u /* host mailbox, NP: the callback's return value (0 OK, 1 FAIL) */
#define NICSIM_MB_NP_DATA    192u /* NP: the 12 response bytes */
#define NICSIM_MB_NP_L4_OFFSET 204u      /* NP: offset of the UDP header in the packet (34 CCMAD, 38 IFA2) */
#define NICSIM_MB_NP_PAYLOAD_OFFSET 208u /* NP: offset of the payload after the MAD header */

/* mailbox call kinds */
#define NICSIM_CALL_EVENT     0u
#define NICSIM_CALL_FLOW_INIT 1u
#define NICSIM_CALL_LOAD_INIT 2u
#define NICSIM_CALL_PORT_INFO 3u   /* doca_pcc_dev_user_port_info_changed(arg) */
#define NICSIM_CALL_HOST_MAILBOX 4u /* doca_pcc_dev_user_mailbox_handle on nicsim_pcc_host_request */
#define NICSIM_CALL_NP_PACKET 5u   /* doca_pcc_dev_np_user_packet_handler on the thread's nicsim_pcc_np_packets row */

/* host mailbox buffers and NP packets */
#define NICSIM_PCC_HOST_MAILBOX_BYTES 1024u
#define NICSIM_PCC_NP_PACKET_BYTES 128u

/* "unchanged" result values the emulator pre-fills */
#define NICSIM_PCC_RATE_UNCHANGED        0xFFFFFFFFu
#define NICSIM_PCC_WINDOW_UNCHANGED      0xFFFFFFFFFFFFFFFFull
#define NICSIM_PCC_WINDOW_UNLIMITED      0ull
#define NICSIM_PCC_FAST_START_UNCHANGED  0xFFFFFFFFu

/* parameter kinds (table field "kind") */
#define NICSIM_PCC_PARAM_INTEGER 0u
#define NICSIM_PCC_PARAM_FXP16   1u

/* table entry sizes */
#define NICSIM_ALGO_ENTRY_BYTES    48u
#define NICSIM_PARAM_ENTRY_BYTES   64u
#define NICSIM_COUNTER_ENTRY_BYTES 48u
#define NICSIM_SLOT_ENTRY_BYTES    8u

#ifndef __ASSEMBLER__
#include <stdint.h>

/** One entry of nicsim_pcc_algos (48 bytes). */
struct nicsim_pcc_algo_entry {
    uint32_t declared;
    uint32_t algo_id;
    uint32_t major;
    uint32_t minor;
    uint32_t param_num;
    uint32_t counter_num;
    uint32_t desc_size;
    uint32_t reserved0;
    uint64_t desc_addr;
    uint64_t reserved1;
};

/** One entry of nicsim_pcc_param_table (64 bytes). */
struct nicsim_pcc_param_entry {
    uint32_t declared;
    uint32_t param_id;
    uint32_t default_value;
    uint32_t max_value;
    uint32_t min_value;
    uint32_t permissions;
    uint32_t kind;
    uint32_t desc_size;
    uint64_t desc_addr;
    uint64_t name_addr;
    uint32_t name_len;
    uint32_t unit_len;
    uint64_t unit_addr;
};

/** One entry of nicsim_pcc_counter_table (48 bytes). */
struct nicsim_pcc_counter_entry {
    uint32_t declared;
    uint32_t counter_id;
    uint32_t max_value;
    uint32_t permissions;
    uint32_t desc_size;
    uint32_t name_len;
    uint64_t desc_addr;
    uint64_t name_addr;
    uint64_t reserved;
};

/** One entry of nicsim_pcc_slots (8 bytes). */
struct nicsim_pcc_slot_entry {
    uint32_t enabled;
    uint32_t algo_idx;
};

extern const uint32_t nicsim_pcc_abi_version;
extern struct nicsim_pcc_algo_entry nicsim_pcc_algos[NICSIM_PCC_MAX_ALGOS];
extern struct nicsim_pcc_param_entry nicsim_pcc_param_table[NICSIM_PCC_MAX_ALGOS][NICSIM_PCC_MAX_PARAMS];
extern struct nicsim_pcc_counter_entry nicsim_pcc_counter_table[NICSIM_PCC_MAX_ALGOS][NICSIM_PCC_MAX_COUNTERS];
extern struct nicsim_pcc_slot_entry nicsim_pcc_slots[NICSIM_PCC_MAX_PORTS][NICSIM_PCC_MAX_SLOTS];
extern uint32_t nicsim_pcc_params[NICSIM_PCC_MAX_PORTS][NICSIM_PCC_MAX_SLOTS][NICSIM_PCC_MAX_PARAMS];
extern uint32_t nicsim_pcc_counters[NICSIM_PCC_MAX_THREADS][NICSIM_PCC_MAX_PORTS][NICSIM_PCC_MAX_SLOTS]
                                   [NICSIM_PCC_MAX_COUNTERS];
extern uint32_t nicsim_pcc_disabled_events;

/** Port state the emulator writes at load (before port-info calls): mask and speeds in Gb/s. */
struct nicsim_pcc_port_info {
    uint32_t logical_ports;
    uint32_t speed_gbps[NICSIM_PCC_MAX_PORTS];
};
extern struct nicsim_pcc_port_info nicsim_pcc_ports;
extern uint8_t nicsim_pcc_host_request[NICSIM_PCC_HOST_MAILBOX_BYTES];
extern uint8_t nicsim_pcc_host_response[NICSIM_PCC_HOST_MAILBOX_BYTES];
extern uint8_t nicsim_pcc_np_packets[NICSIM_PCC_MAX_THREADS][NICSIM_PCC_NP_PACKET_BYTES];
#endif

#endif
