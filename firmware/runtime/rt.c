/*
 * rt.c - the nicsim firmware runtime: the C side of the entries, the tables the emulator reads
 * (firmware/ABI.md section 6), the set-up calls of the DOCA PCC device API, parameters,
 * counters, time and thread getters, and the built-in default algorithm.
 */
#include "nicsim_pcc.h"
#include "nicsim_dcqcn.h"

const uint32_t nicsim_pcc_abi_version = NICSIM_PCC_ABI_VERSION;

struct nicsim_pcc_algo_entry nicsim_pcc_algos[NICSIM_PCC_MAX_ALGOS];
struct nicsim_pcc_param_entry nicsim_pcc_param_table[NICSIM_PCC_MAX_ALGOS][NICSIM_PCC_MAX_PARAMS];
struct nicsim_pcc_counter_entry nicsim_pcc_counter_table[NICSIM_PCC_MAX_ALGOS][NICSIM_PCC_MAX_COUNTERS];
struct nicsim_pcc_slot_entry nicsim_pcc_slots[NICSIM_PCC_MAX_PORTS][NICSIM_PCC_MAX_SLOTS];
uint32_t nicsim_pcc_params[NICSIM_PCC_MAX_PORTS][NICSIM_PCC_MAX_SLOTS][NICSIM_PCC_MAX_PARAMS];
uint32_t nicsim_pcc_counters[NICSIM_PCC_MAX_THREADS][NICSIM_PCC_MAX_PORTS][NICSIM_PCC_MAX_SLOTS]
                            [NICSIM_PCC_MAX_COUNTERS];
uint32_t nicsim_pcc_disabled_events;

/* Weak references: an ELF without them still links, and the emulator reports the missing
 * doca_pcc_dev_user_algo itself (exit 2); the runtime then falls back to the default algorithm. */
#pragma weak doca_pcc_dev_user_algo
#pragma weak doca_pcc_dev_user_init
/* optional callbacks: weak references, so an ELF defines them only when the program does
 * (`nicsim firmware info` shows which) */
#pragma weak doca_pcc_dev_user_port_info_changed
#pragma weak doca_pcc_dev_user_mailbox_handle
#pragma weak doca_pcc_dev_np_user_packet_handler

/* the emulator overwrites these at load; the values here serve riscv run and QEMU */
struct nicsim_pcc_port_info nicsim_pcc_ports = {.logical_ports = 1, .speed_gbps = {100, 0, 0, 0}};
uint8_t nicsim_pcc_host_request[NICSIM_PCC_HOST_MAILBOX_BYTES];
uint8_t nicsim_pcc_host_response[NICSIM_PCC_HOST_MAILBOX_BYTES];
uint8_t nicsim_pcc_np_packets[NICSIM_PCC_MAX_THREADS][NICSIM_PCC_NP_PACKET_BYTES];

#define MB_U32(mb, off) (*(volatile uint32_t *)((mb) + (off)))
#define MB_U64(mb, off) (*(volatile uint64_t *)((mb) + (off)))

/* Weak default: no flow-init work (a DOCA algorithm detects new flows by a zero rate). */
__attribute__((weak)) void nicsim_pcc_user_flow_init(doca_pcc_dev_algo_ctxt_t *algo_ctxt,
                                                     const doca_pcc_dev_event_t *event,
                                                     const doca_pcc_dev_attr_t *attr,
                                                     doca_pcc_dev_results_t *results)
{
    (void)algo_ctxt;
    (void)event;
    (void)attr;
    (void)results;
}

/* Port-info, host-mailbox and NP calls (ABI.md section 5); the emulator issues each only when the
 * ELF defines the callback. */
static void __attribute__((noinline)) nicsim_rt_service(uint8_t *mb, uint32_t call)
{
    if (call == NICSIM_CALL_PORT_INFO && doca_pcc_dev_user_port_info_changed != 0) {
        doca_pcc_dev_user_port_info_changed(MB_U32(mb, NICSIM_MB_ARG));
    } else if (call == NICSIM_CALL_HOST_MAILBOX && doca_pcc_dev_user_mailbox_handle != 0) {
        uint32_t size = 0;
        MB_U32(mb, NICSIM_MB_RETURN) = (uint32_t)doca_pcc_dev_user_mailbox_handle(
            nicsim_pcc_host_request, MB_U32(mb, NICSIM_MB_ARG), MB_U32(mb, NICSIM_MB_ARG2), nicsim_pcc_host_response,
            &size);
        MB_U32(mb, NICSIM_MB_OUT_SIZE) = size;
    } else if (call == NICSIM_CALL_NP_PACKET && doca_pcc_dev_np_user_packet_handler != 0) {
        uint32_t rank = MB_U32(mb, NICSIM_MB_THREAD_RANK) & (NICSIM_PCC_MAX_THREADS - 1);
        struct doca_pcc_np_dev_request_packet in = {
            .raw = nicsim_pcc_np_packets[rank],
            .raw_size = MB_U32(mb, NICSIM_MB_ARG),
            .l4_offset = MB_U32(mb, NICSIM_MB_NP_L4_OFFSET),
            .payload_offset = MB_U32(mb, NICSIM_MB_NP_PAYLOAD_OFFSET),
            .port_num = MB_U32(mb, NICSIM_MB_ARG2),
        };
        struct doca_pcc_np_dev_response_packet out = {
            .size = NICSIM_PCC_RTT_RAW_DATA_BYTES,
            .data = mb + NICSIM_MB_NP_DATA,
#if NICSIM_DOCA_AT_LEAST(3, 0)
            .in = &in,
#endif
        };
        MB_U32(mb, NICSIM_MB_RETURN) = (uint32_t)doca_pcc_dev_np_user_packet_handler(&in, &out);
    }
}

void nicsim_rt_event(uint8_t *mb, doca_pcc_dev_algo_ctxt_t *ctxt)
{
    doca_pcc_dev_event_t *ev = (doca_pcc_dev_event_t *)(mb + NICSIM_MB_EVENT);
    const doca_pcc_dev_attr_t *attr = (const doca_pcc_dev_attr_t *)(mb + NICSIM_MB_ATTR);
    doca_pcc_dev_results_t *res = (doca_pcc_dev_results_t *)(mb + NICSIM_MB_RESULTS);
    uint32_t call = MB_U32(mb, NICSIM_MB_CALL);
    if (unlikely(call != NICSIM_CALL_EVENT)) {
        if (call == NICSIM_CALL_FLOW_INIT) {
            nicsim_pcc_user_flow_init(ctxt, ev, attr, res);
        } else {
            nicsim_rt_service(mb, call);
        }
    } else if (likely(doca_pcc_dev_user_algo != 0)) {
        /* DOCA calls the user algorithm for every event, whatever its slot; the user's code calls
         * doca_pcc_dev_default_internal_algo itself for slots it does not own (issue 19) */
        doca_pcc_dev_user_algo(ctxt, ev, attr, res);
    } else {
        doca_pcc_dev_default_internal_algo(ctxt, ev, attr, res);
    }
    MB_U32(mb, NICSIM_MB_STATUS) = 0;
}

void nicsim_rt_init(uint8_t *mb)
{
    uint32_t mask = 0;
    /* the tables are .bss: zero in a freshly loaded image, which is what load init runs on */
    MB_U32(mb, NICSIM_MB_CALL) = NICSIM_CALL_LOAD_INIT;
    if (doca_pcc_dev_user_init != 0) {
        doca_pcc_dev_user_init(&mask);
    }
    nicsim_pcc_disabled_events = mask;
    for (uint32_t port = 0; port < NICSIM_PCC_MAX_PORTS; port++) {
        for (uint32_t slot = 0; slot < NICSIM_PCC_MAX_SLOTS; slot++) {
            const struct nicsim_pcc_slot_entry *s = &nicsim_pcc_slots[port][slot];
            if (!s->enabled) {
                continue;
            }
            for (uint32_t id = 0; id < NICSIM_PCC_MAX_PARAMS; id++) {
                const struct nicsim_pcc_param_entry *p = &nicsim_pcc_param_table[s->algo_idx][id];
                nicsim_pcc_params[port][slot][id] = p->declared ? p->default_value : 0;
            }
        }
    }
    MB_U32(mb, NICSIM_MB_STATUS) = 0;
}

static uint32_t desc_len(uint32_t desc_size, uint64_t desc_addr)
{
    const char *s = (const char *)(uintptr_t)desc_addr;
    uint32_t n = 0;
    if (s == 0) {
        return 0;
    }
    while (n < desc_size && s[n] != '\0') {
        n++;
    }
    return n;
}

/* Length of the leading name of "name: description", 0 when there is none (ABI.md section 6). */
static uint32_t name_len(const char *s, uint32_t len)
{
    uint32_t n = 0;
    while (n < len && ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z')
                       || (s[n] >= '0' && s[n] <= '9') || s[n] == '_')) {
        n++;
    }
    return n > 0 && n < len && s[n] == ':' ? n : 0;
}

doca_pcc_dev_error_t doca_pcc_dev_algo_init_metadata(uint32_t algo_idx,
                                                     const struct doca_pcc_dev_algo_meta_data *user_def,
                                                     uint32_t param_num, uint32_t counter_num)
{
    if (algo_idx >= NICSIM_PCC_MAX_ALGOS || user_def == 0 || param_num > NICSIM_PCC_MAX_PARAMS
        || counter_num > NICSIM_PCC_MAX_COUNTERS) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    struct nicsim_pcc_algo_entry *a = &nicsim_pcc_algos[algo_idx];
    a->declared = 1;
    a->algo_id = user_def->algo_id;
    a->major = user_def->algo_major_version;
    a->minor = user_def->algo_minor_version;
    a->param_num = param_num;
    a->counter_num = counter_num;
    a->desc_size = desc_len(user_def->algo_desc_size, user_def->algo_desc_addr);
    a->desc_addr = user_def->algo_desc_addr;
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_algo_init_param(uint32_t algo_idx, uint32_t param_id, uint32_t default_value,
                                                  uint32_t max_value, uint32_t min_value, uint32_t permissions,
                                                  uint32_t desc_size, uint64_t desc_addr)
{
    if (algo_idx >= NICSIM_PCC_MAX_ALGOS || param_id >= NICSIM_PCC_MAX_PARAMS || min_value > max_value
        || default_value < min_value || default_value > max_value) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    struct nicsim_pcc_param_entry *p = &nicsim_pcc_param_table[algo_idx][param_id];
    p->declared = 1;
    p->param_id = param_id;
    p->default_value = default_value;
    p->max_value = max_value;
    p->min_value = min_value;
    p->permissions = permissions;
    p->kind = NICSIM_PCC_PARAM_INTEGER;
    p->desc_size = desc_len(desc_size, desc_addr);
    p->desc_addr = desc_addr;
    p->name_len = name_len((const char *)(uintptr_t)desc_addr, p->desc_size);
    p->name_addr = p->name_len ? desc_addr : 0;
    p->unit_len = 0;
    p->unit_addr = 0;
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t nicsim_pcc_algo_param_info(uint32_t algo_idx, uint32_t param_id, uint32_t kind,
                                                const char *unit)
{
    if (algo_idx >= NICSIM_PCC_MAX_ALGOS || param_id >= NICSIM_PCC_MAX_PARAMS || kind > NICSIM_PCC_PARAM_FXP16
        || !nicsim_pcc_param_table[algo_idx][param_id].declared) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    struct nicsim_pcc_param_entry *p = &nicsim_pcc_param_table[algo_idx][param_id];
    p->kind = kind;
    p->unit_addr = (uint64_t)(uintptr_t)unit;
    p->unit_len = unit ? desc_len(0xFFFFu, p->unit_addr) : 0;
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_algo_init_counter(uint32_t algo_idx, uint32_t counter_id, uint32_t max_value,
                                                    uint32_t permissions, uint32_t desc_size, uint64_t desc_addr)
{
    if (algo_idx >= NICSIM_PCC_MAX_ALGOS || counter_id >= NICSIM_PCC_MAX_COUNTERS) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    struct nicsim_pcc_counter_entry *c = &nicsim_pcc_counter_table[algo_idx][counter_id];
    c->declared = 1;
    c->counter_id = counter_id;
    c->max_value = max_value;
    c->permissions = permissions;
    c->desc_size = desc_len(desc_size, desc_addr);
    c->desc_addr = desc_addr;
    c->name_len = name_len((const char *)(uintptr_t)desc_addr, c->desc_size);
    c->name_addr = c->name_len ? desc_addr : 0;
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_init_algo_slot(uint32_t port_num, uint32_t algo_slot, uint32_t algo_idx,
                                                 uint32_t enable)
{
    if (port_num >= NICSIM_PCC_MAX_PORTS || algo_slot >= NICSIM_PCC_MAX_SLOTS || algo_idx >= NICSIM_PCC_MAX_ALGOS
        || (enable && !nicsim_pcc_algos[algo_idx].declared)) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    nicsim_pcc_slots[port_num][algo_slot].enabled = enable ? 1u : 0u;
    nicsim_pcc_slots[port_num][algo_slot].algo_idx = algo_idx;
    return DOCA_PCC_DEV_STATUS_OK;
}

uint32_t *doca_pcc_dev_get_algo_params(uint32_t port_num, uint32_t algo_slot)
{
    if (port_num >= NICSIM_PCC_MAX_PORTS || algo_slot >= NICSIM_PCC_MAX_SLOTS) {
        return 0;
    }
    return nicsim_pcc_params[port_num][algo_slot];
}

uint32_t *doca_pcc_dev_get_counters(uint32_t port_num, uint32_t algo_slot)
{
    uint32_t rank = MB_U32(nicsim_pcc_mailbox(), NICSIM_MB_THREAD_RANK);
    if (port_num >= NICSIM_PCC_MAX_PORTS || algo_slot >= NICSIM_PCC_MAX_SLOTS || rank >= NICSIM_PCC_MAX_THREADS) {
        return 0;
    }
    return nicsim_pcc_counters[rank][port_num][algo_slot];
}

uint32_t doca_pcc_dev_get_algo_index(uint32_t port_num, uint32_t algo_slot)
{
    if (port_num >= NICSIM_PCC_MAX_PORTS || algo_slot >= NICSIM_PCC_MAX_SLOTS) {
        return 0;
    }
    return nicsim_pcc_slots[port_num][algo_slot].algo_idx;
}

/* Weak default: validate against the declared ranges of the slot's algorithm, then copy. */
__attribute__((weak)) doca_pcc_dev_error_t doca_pcc_dev_user_set_algo_params(uint32_t port_num, uint32_t algo_slot,
                                                                             uint32_t param_id_base,
                                                                             uint32_t param_num,
                                                                             const uint32_t *new_param_values,
                                                                             uint32_t *params)
{
    if (port_num >= NICSIM_PCC_MAX_PORTS || algo_slot >= NICSIM_PCC_MAX_SLOTS || param_id_base > NICSIM_PCC_MAX_PARAMS
        || param_num > NICSIM_PCC_MAX_PARAMS - param_id_base || new_param_values == 0 || params == 0) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    uint32_t algo = nicsim_pcc_slots[port_num][algo_slot].algo_idx;
    for (uint32_t i = 0; i < param_num; i++) {
        const struct nicsim_pcc_param_entry *p = &nicsim_pcc_param_table[algo][param_id_base + i];
        if (!p->declared || new_param_values[i] < p->min_value || new_param_values[i] > p->max_value) {
            return DOCA_PCC_DEV_STATUS_FAIL;
        }
    }
    for (uint32_t i = 0; i < param_num; i++) {
        params[param_id_base + i] = new_param_values[i];
    }
    return DOCA_PCC_DEV_STATUS_OK;
}

/* The NIC's built-in algorithm: DCQCN with the Mellanox defaults (runtime/dcqcn_engine.c), no counters. */
void doca_pcc_dev_default_internal_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                                        const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    nicsim_dcqcn_event(algo_ctxt->data, nicsim_dcqcn_default_params, 0, event, attr, results);
}

unsigned int doca_pcc_dev_thread_rank(void)
{
    return MB_U32(nicsim_pcc_mailbox(), NICSIM_MB_THREAD_RANK);
}

uint64_t doca_pcc_dev_get_thread_time(void)
{
    return MB_U64(nicsim_pcc_mailbox(), NICSIM_MB_NOW_US);
}

uint64_t doca_pcc_dev_get_timer(void)
{
    return MB_U64(nicsim_pcc_mailbox(), NICSIM_MB_NOW_US);
}

/* microseconds, as on the DPA (Addendum A.4); event timestamps stay ns */
uint32_t doca_pcc_dev_get_timer_lo(void)
{
    return (uint32_t)MB_U64(nicsim_pcc_mailbox(), NICSIM_MB_NOW_US);
}

/* ---- NIC counters and port queries (Addendum A.3) ---- */
static uint32_t *nic_counter_ids;
static uint32_t nic_counter_num;
static uint32_t *nic_counter_values;

void doca_pcc_dev_nic_counters_config(uint32_t *counter_ids, uint32_t num_counters, uint32_t *values)
{
    nic_counter_ids = counter_ids;
    nic_counter_num = num_counters;
    nic_counter_values = values;
}

void doca_pcc_dev_nic_counters_sample(void)
{
    if (nic_counter_ids == 0 || nic_counter_values == 0) {
        __asm__ volatile("ebreak"); /* DOCA: sampling before any config crashes the process */
    }
    register uintptr_t a0 __asm__("a0") = (uintptr_t)nic_counter_ids;
    register uintptr_t a1 __asm__("a1") = nic_counter_num;
    register uintptr_t a2 __asm__("a2") = (uintptr_t)nic_counter_values;
    register uintptr_t a7 __asm__("a7") = NICSIM_ECALL_NIC_COUNTERS;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    if ((intptr_t)a0 == -38) {
        /* riscv run / QEMU: no NIC behind the firmware; counters read 0 */
        for (uint32_t i = 0; i < nic_counter_num; i++) {
            nic_counter_values[i] = 0;
        }
    } else if (a0 != 0) {
        __asm__ volatile("ebreak"); /* an unknown counter ID: DOCA crashes the process */
    }
}

uint32_t doca_pcc_dev_get_logical_ports(void)
{
    return nicsim_pcc_ports.logical_ports;
}

uint32_t doca_pcc_dev_get_port_speed(uint32_t portid)
{
    return portid < NICSIM_PCC_MAX_PORTS ? nicsim_pcc_ports.speed_gbps[portid] : 0;
}

uint32_t doca_pcc_dev_get_port_planes(uint32_t portid)
{
    return portid < NICSIM_PCC_MAX_PORTS && (nicsim_pcc_ports.logical_ports >> portid & 1) ? 1u : 0u;
}
