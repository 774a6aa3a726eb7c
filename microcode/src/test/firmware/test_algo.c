/*
 * Test fixture for the Java side of firmware-in-the-loop (FirmwareAlgorithmTest): a minimal
 * runtime speaking firmware/ABI.md's entries, mailbox and tables, and an algorithm whose every
 * path has a result a test can derive by hand:
 *   flow start: rate = 1 << 19
 *   any event: context word 0 += 1, counter events_seen += 1, then by Java event type
 *   TX_BURST 0 / ACK 1: rate = (1 << 20) - word0, window = word0 * 1000, timer 5000 ns, fast start 3
 *   CNP 3: rate = start_rate parameter (16.16) >> 1
 *   NACK 2: illegal instruction (unimp)
 *   RTT_RESPONSE 4: loops forever (instruction budget)
 *   TIMER 5: stores to address 0x10, outside the firmware's memory
 * Build: riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -O2 -nostdlib -ffreestanding
 *        -Wl,-e,nicsim_entry_init -Wl,-Ttext=0x10000 -o test-algo.elf test_algo.c
 * (add -DNO_USER_ALGO for test-no-algo.elf).
 */
#include <stdint.h>
typedef struct { uint32_t data[12]; } ctx_t;
struct mb { uint8_t ev[64]; uint64_t line_rate; uint32_t mtu, base_rtt, initial_psn, flags, slot, thread; uint64_t ctx;
    uint32_t now, pad; int32_t rate; uint32_t rtt_req; int64_t window; int32_t timer; int32_t fast_start; uint8_t rsv[56]; };
struct mb nicsim_mailbox __attribute__((aligned(64)));
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

static void done(void) {
    register long a7 asm("a7") = 93;
    register long a0 asm("a0") = 0;
    asm volatile("ecall" :: "r"(a7), "r"(a0));
    for (;;) { }
}

#ifdef NO_USER_ALGO
#define USER_ALGO some_other_algo
#else
#define USER_ALGO doca_pcc_dev_user_algo
#endif
void USER_ALGO(ctx_t *c, const uint8_t *ev) {
    uint8_t type = ev[0];
    c->data[0]++;
    nicsim_counter_values[0][0]++;
    switch (type) {
    case 0: case 1:
        nicsim_mailbox.rate = (1 << 20) - (int32_t) c->data[0];
        nicsim_mailbox.window = (int64_t) c->data[0] * 1000;
        nicsim_mailbox.timer = 5000;
        nicsim_mailbox.fast_start = 3;
        break;
    case 3:
        nicsim_mailbox.rate = (int32_t) (nicsim_param_values[0][0] >> 1);
        break;
    case 2:
        asm volatile("unimp");
        break;
    case 4:
        for (;;) { c->data[1]++; asm volatile("" ::: "memory"); }
    case 5:
        *(volatile uint32_t *) 0x10 = 1;
        break;
    }
}

static const char pd[] = "start_rate|fraction|start rate";
static const char cd[] = "events_seen|events|events handled";
static const char ad[] = "test algo";

void nicsim_entry_init(void) {
    nicsim_algo_table[0] = (struct algo_row){1, 0xabc, 1, 2, 1, 1, (uint64_t) (uintptr_t) ad, sizeof ad, 0};
    nicsim_param_table[0][0] = (struct param_row){1, 32768, 65536, 1, 0, sizeof pd, (uint64_t) (uintptr_t) pd};
    nicsim_param_values[0][0] = 32768;
    nicsim_counter_table[0][0] = (struct counter_row){1, 0xffffffff, 0, sizeof cd, (uint64_t) (uintptr_t) cd};
    nicsim_slot_table[0][0] = 1;
    done();
}

void nicsim_entry_event(void) {
    USER_ALGO((ctx_t *) nicsim_mailbox.ctx, nicsim_mailbox.ev);
    done();
}

void nicsim_entry_flow_start(void) {
    nicsim_mailbox.rate = 1 << 19;
    done();
}
