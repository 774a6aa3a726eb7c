/*
 * doca_port_state.c - test firmware written from Addendum A.6 as a user would write a port-state
 * callback: every call of doca_pcc_dev_user_port_info_changed is counted and recorded (the port it
 * names, the logical-port mask, the port's speed in Gb/s and the time in us, all read through DOCA's
 * own queries inside the callback), then published behind a write fence. The algorithm leaves every
 * rate unchanged (the NIC keeps line rate), so a run's timing is the fabric's alone.
 * Only DOCA names; no nicsim header.
 */
#include <doca_pcc_dev.h>

#define MAX_RECORDS 8

static const char desc[] = "port state: records port-info calls";
uint32_t port_info_calls;
uint32_t rec_port[MAX_RECORDS];
uint32_t rec_mask[MAX_RECORDS];
uint32_t rec_speed_gbps[MAX_RECORDS];
uint32_t rec_time_us[MAX_RECORDS];

void doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
    uint32_t i = port_info_calls;
    if (i < MAX_RECORDS) {
        rec_port[i] = portid;
        rec_mask[i] = doca_pcc_dev_get_logical_ports();
        rec_speed_gbps[i] = doca_pcc_dev_get_port_speed(portid);
        rec_time_us[i] = doca_pcc_dev_get_timer_lo();
    }
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
    port_info_calls = i + 1;
}

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0x9057,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, 0, 0);
    for (int port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 0;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    if (attr->algo_slot != 0) {
        doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
    }
}
