/*
 * doca_rp_tx_sampler.c - test firmware written from Addendum A as NVIDIA's RP sample uses the NIC
 * counters (A.3, A.6): the port-state callback configures the port's TX-bytes counter and reads the
 * port speed; the algorithm samples the counter at most once per 10 us (timer_lo in us, A.4), turns
 * the byte delta into MB/s (bytes per us) and sets the rate to the port's idle share:
 * rate = MAX_RATE x (speed - tx) / speed (speed in MB/s = Gb/s x 1000 >> 3), at least 1.
 * Only DOCA names; no nicsim header.
 */
#include <doca_pcc_dev.h>

#define SAMPLE_PERIOD_US 10

static const char desc[] = "tx sampler: rate = idle share of the port";
static uint32_t tx_counter_ids[1];
static uint32_t tx_counter_values[1];
uint32_t port_speed_MBps;
uint32_t port_info_calls;
uint32_t last_sample_us;
uint32_t last_tx_bytes;
uint32_t tx_MBps;
uint32_t samples;

void doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
    port_info_calls++;
    if (!(doca_pcc_dev_get_logical_ports() & (1u << portid))) {
        return;
    }
    tx_counter_ids[0] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(portid, DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES, 0);
    doca_pcc_dev_nic_counters_config(tx_counter_ids, 1, tx_counter_values);
    port_speed_MBps = doca_pcc_dev_get_port_speed(portid) * 1000 >> 3;
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
}

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0x7A5,
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

static void sample(void)
{
    uint32_t now = doca_pcc_dev_get_timer_lo();
    if (samples > 0 && now - last_sample_us < SAMPLE_PERIOD_US) {
        return;
    }
    doca_pcc_dev_nic_counters_sample();
    if (samples > 0) {
        tx_MBps = (tx_counter_values[0] - last_tx_bytes) / (now - last_sample_us); /* wraps modulo 2^32 */
    }
    last_tx_bytes = tx_counter_values[0];
    last_sample_us = now;
    samples++;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    if (attr->algo_slot != 0) {
        doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
        return;
    }
    sample();
    if (samples < 2 || port_speed_MBps == 0) {
        return;
    }
    uint32_t busy = tx_MBps < port_speed_MBps ? tx_MBps : port_speed_MBps;
    uint32_t rate = (uint32_t)(((uint64_t)(port_speed_MBps - busy) << DOCA_PCC_DEV_LOG_MAX_RATE) / port_speed_MBps);
    results->rate = rate > 0 ? rate : 1;
}
