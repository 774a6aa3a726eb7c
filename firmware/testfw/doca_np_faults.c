/*
 * doca_np_faults.c - test NP program (Addendum A.7 entry point) whose handler misbehaves on purpose:
 * its first call loops forever (abandoned at the instruction budget), its second stores to
 * 0x20000000, between the thread area and context memory (a store access fault); every later call
 * answers with the request's send timestamp (the first payload word) copied unswapped into bytes
 * 0..3 and zeros after it, so the requester's RTT timestamp getters read the send time, 0 and 0 and
 * RTT stays measurable; the third call returns DOCA_PCC_DEV_STATUS_FAIL with those bytes, the others OK.
 */
#include <doca_pcc_np_dev.h>

static uint32_t calls;

doca_pcc_dev_error_t doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
                                                         struct doca_pcc_np_dev_response_packet *out)
{
    calls++;
    if (calls == 1) {
        for (;;) {
            __asm__ volatile("" ::: "memory");
        }
    }
    if (calls == 2) {
        *(volatile uint32_t *)(uintptr_t)0x20000000u = 1;
    }
    const uint8_t *p = doca_pcc_np_dev_get_payload(in);
    for (int i = 0; i < 12; i++) {
        out->data[i] = i < 4 ? p[i] : 0;
    }
    return calls == 3 ? DOCA_PCC_DEV_STATUS_FAIL : DOCA_PCC_DEV_STATUS_OK;
}
