/*
 * doca_pcc_np_dev.h - the DOCA PCC notification-point (NP) device API (Addendum A.7): what an NP
 * program includes (only this header). It makes common, utils and services visible, the request
 * and response types, their accessors and the NP entry point the program defines. Written for
 * nicsim from the public description, not copied from NVIDIA.
 *
 * nicsim's request packet (firmware/ABI.md section 9): the probe as Ethernet (14 bytes) + IPv4 (20)
 * + UDP (8) + a 24-byte CCMAD-like header, then the payload, whose first word is the requester's
 * send timestamp (ns, big-endian). The offsets below are nicsim's; programs use the accessors.
 */
#ifndef DOCA_PCC_NP_DEV_H
#define DOCA_PCC_NP_DEV_H

#include <stddef.h>
#include "doca_pcc_dev_common.h"
#include "doca_pcc_dev_utils.h"
#include "doca_pcc_dev_services.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A probe request as the NP program sees it; read it through the accessors only. */
struct doca_pcc_np_dev_request_packet {
    uint8_t *raw;         /* Ethernet header */
    uint32_t raw_size;    /* bytes from raw */
    uint32_t l4_offset;   /* UDP header */
    uint32_t payload_offset;
    uint32_t port_num;    /* logical port of arrival */
};

/** The response: the handler fills data (size bytes, 12). */
struct doca_pcc_np_dev_response_packet {
    size_t size;
    uint8_t *data;
#if NICSIM_DOCA_AT_LEAST(3, 0)
    struct doca_pcc_np_dev_request_packet *in;
#endif
};

/**
 * Defined by the NP program: called for each probe request that reaches the receiving NIC; fills
 * out->data (at most out->size bytes) and returns DOCA_PCC_DEV_STATUS_OK. The bytes reach the
 * requester's RTT event as its raw data (doca_pcc_dev_get_rtt_raw_data).
 */
doca_pcc_dev_error_t doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
                                                         struct doca_pcc_np_dev_response_packet *out);

/** @return the probe's Ethernet header */
static inline uint8_t *doca_pcc_np_dev_get_raw_packet(const struct doca_pcc_np_dev_request_packet *in)
{
    return in->raw;
}

/** @return bytes of the whole probe */
static inline size_t doca_pcc_np_dev_get_raw_packet_size(const struct doca_pcc_np_dev_request_packet *in)
{
    return in->raw_size;
}

/** @return the UDP header (the payload follows it) */
static inline uint8_t *doca_pcc_np_dev_get_l4_header(const struct doca_pcc_np_dev_request_packet *in)
{
    return in->raw + in->l4_offset;
}

/** @return bytes from the UDP header to the end */
static inline size_t doca_pcc_np_dev_get_l4_size(const struct doca_pcc_np_dev_request_packet *in)
{
    return in->raw_size - in->l4_offset;
}

/** @return the first byte after the probe's MAD header: the send timestamp (ns, big-endian) */
static inline uint8_t *doca_pcc_np_dev_get_payload(const struct doca_pcc_np_dev_request_packet *in)
{
    return in->raw + in->payload_offset;
}

/** @return bytes of payload */
static inline size_t doca_pcc_np_dev_get_payload_size(const struct doca_pcc_np_dev_request_packet *in)
{
    return in->raw_size - in->payload_offset;
}

/** @return the logical port the probe arrived on */
static inline uint8_t doca_pcc_np_dev_get_port_num(const struct doca_pcc_np_dev_request_packet *in)
{
    return (uint8_t)in->port_num;
}

/** @return the plane of arrival: 0 (planes are a ConnectX-8 feature) */
static inline uint8_t doca_pcc_np_dev_get_plane_num(const struct doca_pcc_np_dev_request_packet *in)
{
    (void)in;
    return 0;
}

/** @return out->size, 12 */
static inline size_t doca_pcc_np_dev_get_max_response_size(const struct doca_pcc_np_dev_response_packet *out)
{
    return out->size;
}

#ifdef __cplusplus
}
#endif

#endif
