/* compile-only (make check-headers): an NP program includes only doca_pcc_np_dev.h, yet reaches
 * printf, thread_rank, timer_lo, fls, the NIC-counter calls, __dpa_thread_fence, the port count and
 * the status codes (Addendum A.1) */
#include <doca_pcc_np_dev.h>

static uint32_t ids[1], values[1];

doca_pcc_dev_error_t doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
                                                         struct doca_pcc_np_dev_response_packet *out)
{
    ids[0] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(doca_pcc_np_dev_get_port_num(in), DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES, 0);
    doca_pcc_dev_nic_counters_config(ids, 1, values);
    doca_pcc_dev_nic_counters_sample();
    uint8_t *l4 = doca_pcc_np_dev_get_l4_header(in) + 8;
    size_t n = doca_pcc_np_dev_get_raw_packet_size(in) + doca_pcc_np_dev_get_l4_size(in)
               + doca_pcc_np_dev_get_payload_size(in) + doca_pcc_np_dev_get_max_response_size(out);
    out->data[0] = (uint8_t)(l4[0] + doca_pcc_np_dev_get_raw_packet(in)[0] + n);
    out->data[1] = (uint8_t)doca_pcc_dev_fls(doca_pcc_dev_get_timer_lo());
    doca_pcc_dev_printf("np %u on rank %u\n", values[0], doca_pcc_dev_thread_rank());
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
    for (int p = 0; p < DOCA_PCC_DEV_MAX_NUM_PORTS; p++) {
        out->data[2] = (uint8_t)p;
    }
#if DOCA_VERSION_MAJOR >= 3
    out->data[3] = (uint8_t)(out->in == in);
#endif
    return DOCA_PCC_DEV_STATUS_OK;
}
