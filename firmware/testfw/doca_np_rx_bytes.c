/*
 * doca_np_rx_bytes.c - test NP program written from Addendum A.7 as NVIDIA's NIC-telemetry NP
 * sample is described: it includes only doca_pcc_np_dev.h, configures the RX-bytes counter of the
 * arrival port on its first packet, and answers each probe with word 0 = the request's first
 * payload word (the send timestamp) byte-swapped, word 1 = the port's RX bytes, word 2 = timer_lo
 * (us). The RX counter type exists up to DOCA 3.2 (build with DOCA_VERSION=3.2 or 2.9).
 */
#include <doca_pcc_np_dev.h>

static uint32_t rx_counter_ids[DOCA_PCC_DEV_MAX_NUM_PORTS];
static uint32_t rx_counter_values[DOCA_PCC_DEV_MAX_NUM_PORTS];
static uint32_t configured;

doca_pcc_dev_error_t doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
                                                         struct doca_pcc_np_dev_response_packet *out)
{
    if (!configured) {
        for (int p = 0; p < DOCA_PCC_DEV_MAX_NUM_PORTS; p++) {
            rx_counter_ids[p] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(p, DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES, 0);
        }
        doca_pcc_dev_nic_counters_config(rx_counter_ids, 1, rx_counter_values);
        configured = 1;
    }
    doca_pcc_dev_nic_counters_sample();
    uint32_t *payload = (uint32_t *)doca_pcc_np_dev_get_payload(in);
    uint32_t *data = (uint32_t *)out->data;
    data[0] = __builtin_bswap32(payload[0]);
    data[1] = doca_pcc_np_dev_get_port_num(in) == 0 ? rx_counter_values[0] : 0;
    data[2] = doca_pcc_dev_get_timer_lo();
    return DOCA_PCC_DEV_STATUS_OK;
}
