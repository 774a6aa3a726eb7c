/* Interim runtime (see nicsim_interim.h): entries, tables and set-up calls of the proposed ABI. */
#include "nicsim_interim.h"

struct nicsim_mailbox nicsim_mailbox __attribute__((aligned(64)));
struct algo_row { uint32_t declared, algo_id, major, minor, param_num, counter_num; uint64_t desc_addr; uint32_t desc_size, pad; };
struct param_row { uint32_t declared, def, max, min, perm, desc_size; uint64_t desc_addr; };
struct counter_row { uint32_t declared, max, perm, desc_size; uint64_t desc_addr; };
struct algo_row nicsim_algo_table[8];
struct param_row nicsim_param_table[8][0x2C];
uint32_t nicsim_param_values[8][0x2C];
struct counter_row nicsim_counter_table[8][0x3F];
uint32_t nicsim_counter_values[8][0x3F];
uint32_t nicsim_slot_table[4][8];
uint32_t nicsim_disable_mask;
extern char __bss_start[], _end[];

static void __attribute__((noreturn)) done(void) {
    register long a7 asm("a7") = 93;
    register long a0 asm("a0") = 0;
    asm volatile("ecall" :: "r"(a7), "r"(a0));
    for (;;) { }
}

doca_pcc_dev_error_t doca_pcc_dev_algo_init_metadata(uint32_t i, const struct doca_pcc_dev_algo_meta_data *d, uint32_t pn, uint32_t cn) {
    if (i >= 8 || pn > 0x2C || cn > 0x3F) return DOCA_PCC_DEV_STATUS_FAIL;
    nicsim_algo_table[i] = (struct algo_row){1, d->algo_id, d->algo_major_version, d->algo_minor_version, pn, cn, d->algo_desc_addr,
        d->algo_desc_size, 0};
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_algo_init_param(uint32_t i, uint32_t id, uint32_t def, uint32_t max, uint32_t min, uint32_t perm,
                                                  uint32_t size, uint64_t addr) {
    if (i >= 8 || id >= 0x2C) return DOCA_PCC_DEV_STATUS_FAIL;
    nicsim_param_table[i][id] = (struct param_row){1, def, max, min, perm, size, addr};
    nicsim_param_values[i][id] = def;
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_algo_init_counter(uint32_t i, uint32_t id, uint32_t max, uint32_t perm, uint32_t size, uint64_t addr) {
    if (i >= 8 || id >= 0x3F) return DOCA_PCC_DEV_STATUS_FAIL;
    nicsim_counter_table[i][id] = (struct counter_row){1, max, perm, size, addr};
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_init_algo_slot(uint32_t port, uint32_t slot, uint32_t i, uint32_t enable) {
    if (port >= 4 || slot >= 8 || i >= 8) return DOCA_PCC_DEV_STATUS_FAIL;
    nicsim_slot_table[port][slot] = enable ? i + 1 : 0;
    return DOCA_PCC_DEV_STATUS_OK;
}

static uint32_t algo_of(uint32_t port, uint32_t slot) {
    uint32_t v = port < 4 && slot < 8 ? nicsim_slot_table[port][slot] : 0;
    return v ? v - 1 : 0;
}

uint32_t *doca_pcc_dev_get_algo_params(uint32_t port, uint32_t slot) { return nicsim_param_values[algo_of(port, slot)]; }
uint32_t *doca_pcc_dev_get_counters(uint32_t port, uint32_t slot) { return nicsim_counter_values[algo_of(port, slot)]; }

void nicsim_entry_init(void) {
    for (char *p = __bss_start; p < _end; p++) *p = 0;
    doca_pcc_dev_user_init(&nicsim_disable_mask);
    done();
}

void nicsim_entry_event(void) {
    nicsim_algo_event((doca_pcc_dev_algo_ctxt_t *) (uintptr_t) nicsim_mailbox.context, &nicsim_mailbox.event, &nicsim_mailbox);
    done();
}

void nicsim_entry_flow_start(void) {
    if (nicsim_user_flow_init) nicsim_user_flow_init((doca_pcc_dev_algo_ctxt_t *) (uintptr_t) nicsim_mailbox.context, &nicsim_mailbox);
    done();
}

/* the DOCA entry every algorithm exports; here the mailbox adapter above calls the port directly */
void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *ctx, void *event, const void *attr, void *results) {
    (void) attr; (void) results;
    nicsim_algo_event(ctx, (const nicsim_event_t *) event, &nicsim_mailbox);
}
