/*
 * doca_unmodelled_services.c - test RP that asks for what nicsim does not model, each on purpose, so
 * that a run must say so (FirmwareServiceLog, docs/firmware.md "Services nicsim does not model"):
 * - doca_pcc_dev_trace_5 on every event (the trace records are dropped); the counter "events" counts
 *   the same calls, so a test compares the two;
 * - one ecall with the number 0x4E7F, not one of the runtime's (it returns -38), on each flow's first
 *   event (a zero context, DOCA's new-flow test);
 * - NIC counters configured with port 3's TX bytes, which nicsim does not model, and sampled from the
 *   port-state callback: the sample faults (as DOCA's process crashes) once per NIC;
 * - its own doca_pcc_dev_user_set_algo_params, which, like NVIDIA's telemetry template, checks bounds
 *   and copies nothing; nicsim never calls it and writes algorithm.params itself.
 * Results: rate unchanged (line rate), so the run's flows finish. Only DOCA names, no nicsim header.
 */
#include <doca_pcc_dev.h>

static const char desc[] = "unmodelled services: trace, unknown ecall, port 3 counter, own set_algo_params";
static const char param_desc[] = "step: unused";
static const char counter_desc[] = "events: user_algo calls (each also calls doca_pcc_dev_trace_5)";
static uint32_t counter_ids[1];
static uint32_t counter_values[1];

void doca_pcc_dev_user_init(uint32_t *disable_event_bitmask)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = 0x5E4,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = sizeof(desc),
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, 1, 1);
    doca_pcc_dev_algo_init_param(0, 0, 1, 100, 1, 1, sizeof(param_desc), (uint64_t)(uintptr_t)param_desc);
    doca_pcc_dev_algo_init_counter(0, 0, UINT32_MAX, 0, sizeof(counter_desc), (uint64_t)(uintptr_t)counter_desc);
    for (int port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
    *disable_event_bitmask = 0;
}

doca_pcc_dev_error_t doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot, uint32_t param_id_base,
                                                       uint32_t param_num, const uint32_t *new_param_values,
                                                       uint32_t *params)
{
    (void)port_num;
    (void)algo_slot;
    (void)params;
    for (uint32_t i = 0; i < param_num; i++) {
        if (param_id_base + i != 0 || new_param_values[i] < 1 || new_param_values[i] > 100) {
            return DOCA_PCC_DEV_STATUS_FAIL;
        }
    }
    return DOCA_PCC_DEV_STATUS_OK;
}

void doca_pcc_dev_user_port_info_changed(uint32_t portid)
{
    (void)portid;
    counter_ids[0] = DOCA_PCC_DEV_GET_PORT_COUNTER_ID(3, DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES, 0);
    doca_pcc_dev_nic_counters_config(counter_ids, 1, counter_values);
    doca_pcc_dev_nic_counters_sample();
}

static long unknown_ecall(void)
{
    register long a0 __asm__("a0") = 0;
    register long a7 __asm__("a7") = 0x4E7F;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)results;
    if (attr->algo_slot != 0) {
        doca_pcc_dev_default_internal_algo(algo_ctxt, event, attr, results);
        return;
    }
    doca_pcc_dev_event_general_attr_t ev = doca_pcc_dev_get_ev_attr(event);
    uint32_t *counters = doca_pcc_dev_get_counters(ev.port_num, attr->algo_slot);
    if (counters) {
        counters[0]++;
    }
    doca_pcc_dev_trace_5(7, ev.ev_type, doca_pcc_dev_get_sn(event), doca_pcc_dev_get_timestamp(event), 0, 0);
    if (algo_ctxt->data[0] == 0) {
        algo_ctxt->data[0] = (uint32_t)unknown_ecall();
    }
}
