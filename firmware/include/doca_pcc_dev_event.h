/*
 * doca_pcc_dev_event.h - PCC events and their getters (DOCA PCC device API names, nicsim
 * implementation). Every multi-byte field of the event is stored big-endian; the getters
 * byte-swap. Layout: firmware/ABI.md section 4.1. Written for nicsim, not copied from NVIDIA.
 */
#ifndef DOCA_PCC_DEV_EVENT_H
#define DOCA_PCC_DEV_EVENT_H

#include "doca_pcc_dev_common.h"

/** Event types (the ev_type byte). */
typedef enum {
    DOCA_PCC_DEV_EVNT_NULL = 0,
    DOCA_PCC_DEV_EVNT_FW = 1,
    DOCA_PCC_DEV_EVNT_ROCE_CNP = 2,
    DOCA_PCC_DEV_EVNT_ROCE_TX = 3,
    DOCA_PCC_DEV_EVNT_ROCE_ACK = 4,
    DOCA_PCC_DEV_EVNT_ROCE_NACK = 5,
    DOCA_PCC_DEV_EVNT_RTT = 6,
    DOCA_PCC_DEV_EVNT_ROCE_TX_FOR_ACK_NACK = 31,
} doca_pcc_dev_event_type_enum;

/** NACK subtypes (the ev_subtype byte of a NACK event). */
typedef enum {
    DOCA_PCC_DEV_NACK_EVNT_NULL = 0,
    DOCA_PCC_DEV_NACK_EVNT_RNR = 1,
    DOCA_PCC_DEV_NACK_EVNT_OOS = 2,
    DOCA_PCC_DEV_NACK_EVNT_DUP_READ = 3,
} doca_pcc_dev_nack_event_sub_type_enum;

/** Flags of a TX event. */
typedef enum {
    DOCA_PCC_DEV_TX_FLAG_ACK_EXPECTED = 1,
    DOCA_PCC_DEV_TX_FLAG_OVERLOADED = 2,
    DOCA_PCC_DEV_TX_FLAG_RTT_REQ_SENT = 4,
} doca_pcc_dev_tx_flag_enum;

/**
 * The event-specific words of NVIDIA's event layout (Addendum A.8), as far as nicsim fills them:
 * on TX events roce_tx holds, big-endian, the first-coalesced timestamp, the TX counters
 * (after a 32-bit swap: sent_32bytes in bits 0-15, sent_pkts in bits 16-31, as the bit-fields of
 * doca_pcc_dev_roce_tx_cntrs_t) and the flow QPN
 * (low 24 bits), so code written for releases without doca_pcc_dev_get_flow_qpn finds the QPN at
 * byte 8 of roce_tx. On RTT events the first 12 bytes are the raw data (hardware responder: the
 * three RTT timestamps, big-endian; an NP program: its 12 bytes). The union overlays event
 * bytes 44..59 (firmware/ABI.md 4.1); word 3 is the QPN field of nicsim's layout.
 */
typedef struct {
    uint32_t be_first_timestamp;
    uint32_t be_cntrs;
    uint32_t be_qpn;
    uint32_t reserved;
} doca_pcc_dev_roce_tx_spec_attr_t;

typedef union {
    doca_pcc_dev_roce_tx_spec_attr_t roce_tx;
    uint32_t ack_nack_cnp[4];
    uint32_t rtt_tstamp[4];
    uint32_t fw_data[4];
    uint8_t raw[16];
} doca_pcc_dev_ev_spec_attr_t;

/** The event record as the emulator writes it (80 bytes; multi-byte fields big-endian). */
typedef struct {
    uint8_t ev_type;
    uint8_t ev_subtype;
    uint8_t port_num;
    uint8_t flags;
    uint32_t be_flow_tag;
    uint32_t be_sn;
    uint32_t be_timestamp;
    uint32_t be_first_timestamp;
    uint32_t be_first_sn;
    uint32_t be_num_coalesced;
    uint16_t be_sent_32bytes;
    uint16_t be_sent_pkts;
    uint32_t be_rtt_req_send_ts;
    uint32_t be_rtt_req_recv_ts;
    uint32_t be_rtt_resp_send_ts;
    union {
        struct {
            uint8_t rtt_raw_data[12];
            uint32_t be_qpn;
        };
        doca_pcc_dev_ev_spec_attr_t ev_spec_attr;
    };
    uint8_t nicsim_flags;
    uint8_t nicsim_type;
    uint16_t reserved0;
    uint32_t be_tx_bytes;
    uint32_t be_tx_packets;
    uint32_t reserved1[2];
} doca_pcc_dev_event_t;

/** Type, subtype, port and flags of an event. */
typedef struct {
    uint32_t ev_type;
    uint32_t ev_subtype;
    uint32_t port_num;
    uint32_t flags;
} doca_pcc_dev_event_general_attr_t;

/** TX counters: bytes in 32-byte units and packets, each saturating at 16 bits. */
typedef struct {
    uint32_t sent_32bytes : 16;
    uint32_t sent_pkts : 16;
} doca_pcc_dev_roce_tx_cntrs_t;

/** Coalescing information of an ACK, NACK or CNP event. */
typedef struct {
    uint32_t num_coalesced;
} doca_pcc_dev_ack_nack_cnp_extra_t;

static inline uint32_t nicsim_be32(uint32_t v)
{
    return __builtin_bswap32(v);
}

static inline uint16_t nicsim_be16(uint16_t v)
{
    return __builtin_bswap16(v);
}

/** @return type, subtype, port and flags of the event */
static inline doca_pcc_dev_event_general_attr_t doca_pcc_dev_get_ev_attr(const doca_pcc_dev_event_t *ev)
{
    doca_pcc_dev_event_general_attr_t a;
    a.ev_type = ev->ev_type;
    a.ev_subtype = ev->ev_subtype;
    a.port_num = ev->port_num;
    a.flags = ev->flags;
    return a;
}

/** @return the 32-bit flow tag (nicsim: the QPN) */
static inline uint32_t doca_pcc_dev_get_flowtag(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_flow_tag);
}

/** @return the PSN of the event's (last merged) packet */
static inline uint32_t doca_pcc_dev_get_sn(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_sn);
}

/** @return the event time, ns, 32-bit wrapping */
static inline uint32_t doca_pcc_dev_get_timestamp(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_timestamp);
}

/** @return time of the first coalesced event, ns (TX/ACK/NACK/CNP) */
static inline uint32_t doca_pcc_dev_get_roce_first_timestamp(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_first_timestamp);
}

/** @return TX bytes (32-byte units) and packets of a TX event */
static inline doca_pcc_dev_roce_tx_cntrs_t doca_pcc_dev_get_roce_tx_cntrs(const doca_pcc_dev_event_t *ev)
{
    doca_pcc_dev_roce_tx_cntrs_t c;
    c.sent_32bytes = nicsim_be16(ev->be_sent_32bytes);
    c.sent_pkts = nicsim_be16(ev->be_sent_pkts);
    return c;
}

/** @return the sn of the first coalesced event (ACK/NACK/CNP) */
static inline uint32_t doca_pcc_dev_get_roce_ack_first_sn(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_first_sn);
}

/** @return how many events were merged into this one (ACK/NACK/CNP) */
static inline doca_pcc_dev_ack_nack_cnp_extra_t doca_pcc_dev_get_ack_nack_cnp_extra(const doca_pcc_dev_event_t *ev)
{
    doca_pcc_dev_ack_nack_cnp_extra_t x;
    x.num_coalesced = nicsim_be32(ev->be_num_coalesced);
    return x;
}

/** @return RTT event: when the probe was sent, local clock, ns */
static inline uint32_t doca_pcc_dev_get_rtt_req_send_timestamp(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_rtt_req_send_ts);
}

/** @return RTT event: when the remote side received the probe, remote clock, ns */
static inline uint32_t doca_pcc_dev_get_rtt_req_recv_timestamp(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_rtt_req_recv_ts);
}

/** @return RTT event: when the remote side sent the response, remote clock, ns */
static inline uint32_t doca_pcc_dev_get_rtt_resp_send_timestamp(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_rtt_resp_send_ts);
}

/** Bytes of RTT raw data. */
#define NICSIM_PCC_RTT_RAW_DATA_BYTES 12u

/**
 * @return RTT event: the 12 bytes of the response: what the remote NP program wrote, or (hardware
 * responder, no NP program) the three timestamps big-endian (non-const, as NVIDIA's)
 */
static inline unsigned char *doca_pcc_dev_get_rtt_raw_data(doca_pcc_dev_event_t *ev)
{
    return ev->rtt_raw_data;
}

/** @return 12, the bytes doca_pcc_dev_get_rtt_raw_data points at */
static inline uint32_t doca_pcc_dev_get_rtt_raw_data_size(const doca_pcc_dev_event_t *ev)
{
    (void)ev;
    return NICSIM_PCC_RTT_RAW_DATA_BYTES;
}

/** @return the QP number of the event's flow */
static inline uint32_t doca_pcc_dev_get_flow_qpn(const doca_pcc_dev_event_t *ev)
{
    return nicsim_be32(ev->be_qpn);
}

#endif
