/*
 * describe.c - the weak default nicsim_main that _start calls under ./nicsim riscv run or
 * qemu-riscv64: runs the load init on thread slot 0's mailbox and prints what the firmware
 * declared (algorithms, parameters, counters, slots). Test drivers define their own nicsim_main.
 */
#include "nicsim_pcc.h"

static void print_str(const char *label, uint64_t addr, uint32_t len)
{
    doca_pcc_dev_printf("%s\"", label);
    if (addr != 0 && len != 0) {
        nicsim_pcc_write((const char *)(uintptr_t)addr, len);
    }
    doca_pcc_dev_printf("\"");
}

__attribute__((weak)) int nicsim_main(void)
{
    uint8_t *mb = nicsim_pcc_mailbox();
    nicsim_rt_init(mb);
    doca_pcc_dev_printf("nicsim firmware abi %u disabled_events 0x%x\n", nicsim_pcc_abi_version,
                        nicsim_pcc_disabled_events);
    for (uint32_t a = 0; a < NICSIM_PCC_MAX_ALGOS; a++) {
        const struct nicsim_pcc_algo_entry *al = &nicsim_pcc_algos[a];
        if (!al->declared) {
            continue;
        }
        doca_pcc_dev_printf("algo %u id 0x%x version %u.%u params %u counters %u ", a, al->algo_id, al->major,
                            al->minor, al->param_num, al->counter_num);
        print_str("desc ", al->desc_addr, al->desc_size);
        doca_pcc_dev_printf("\n");
        for (uint32_t i = 0; i < NICSIM_PCC_MAX_PARAMS; i++) {
            const struct nicsim_pcc_param_entry *p = &nicsim_pcc_param_table[a][i];
            if (!p->declared) {
                continue;
            }
            doca_pcc_dev_printf("  param %u ", i);
            print_str("name ", p->name_addr, p->name_len);
            doca_pcc_dev_printf(" kind %s default %u min %u max %u perm %u ",
                                p->kind == NICSIM_PCC_PARAM_FXP16 ? "fxp16" : "int", p->default_value,
                                p->min_value, p->max_value, p->permissions);
            print_str("unit ", p->unit_addr, p->unit_len);
            doca_pcc_dev_printf("\n");
        }
        for (uint32_t i = 0; i < NICSIM_PCC_MAX_COUNTERS; i++) {
            const struct nicsim_pcc_counter_entry *c = &nicsim_pcc_counter_table[a][i];
            if (!c->declared) {
                continue;
            }
            doca_pcc_dev_printf("  counter %u ", i);
            print_str("name ", c->name_addr, c->name_len);
            doca_pcc_dev_printf(" max 0x%x perm %u\n", c->max_value, c->permissions);
        }
    }
    for (uint32_t port = 0; port < NICSIM_PCC_MAX_PORTS; port++) {
        for (uint32_t slot = 0; slot < NICSIM_PCC_MAX_SLOTS; slot++) {
            if (nicsim_pcc_slots[port][slot].enabled) {
                doca_pcc_dev_printf("slot port %u slot %u algo %u\n", port, slot, nicsim_pcc_slots[port][slot].algo_idx);
            }
        }
    }
    return 0;
}
