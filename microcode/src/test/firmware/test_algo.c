/*
 * Test fixture for the Java side of firmware-in-the-loop (FirmwareAlgorithmTest): a minimal
 * runtime speaking firmware/ABI.md v1 (entries, per-thread mailbox, tables), and an algorithm
 * whose every path has a result a test can derive by hand:
 *   flow init: rate = 1 << 19
 *   any event: context word 0 += 1, counter events_seen += 1, then by Java event type (mailbox byte 61)
 *   TX_BURST 0 / ACK 1: rate = (1 << 20) - word0, window = word0 * 1000, timer 5000 ns, fast start 3
 *   CNP 3: rate = start_rate parameter (16.16) >> 1
 *   NACK 2: illegal instruction (unimp)
 *   RTT_RESPONSE 4: loops forever (instruction budget)
 *   TIMER 5: stores to address 0x10, outside the firmware's memory
 * Build (make -C microcode/src/test/firmware is not wired; run by hand):
 *   riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -mcmodel=medany -O2 -nostdlib -ffreestanding
 *     -Wl,--build-id=none -T test.ld -o ../resources/firmware/test-algo.elf test_algo.c
 * (add -DNO_USER_ALGO for test-no-algo.elf).
 */
#include <stdint.h>
typedef struct { uint32_t data[12]; } ctx_t;
struct algo_row { uint32_t declared, algo_id, major, minor, param_num, counter_num, desc_size, rsv; uint64_t desc_addr, rsv2; };
struct param_row { uint32_t declared, id, def, max, min, perm, kind, desc_size; uint64_t desc_addr, name_addr;
    uint32_t name_len, unit_len; uint64_t unit_addr; };
struct counter_row { uint32_t declared, id, max, perm, desc_size, name_len; uint64_t desc_addr, name_addr, rsv; };
struct slot_row { uint32_t enabled, algo_idx; };
const uint32_t nicsim_pcc_abi_version = 1;
struct algo_row nicsim_pcc_algos[8];
struct param_row nicsim_pcc_param_table[8][48];
uint32_t nicsim_pcc_params[4][8][48];
struct counter_row nicsim_pcc_counter_table[8][16];
uint32_t nicsim_pcc_counters[256][4][8][16];
struct slot_row nicsim_pcc_slots[4][8];
uint32_t nicsim_pcc_disabled_events;

static void __attribute__((noreturn)) done(uint8_t *mb) {
    register long a7 asm("a7") = 0x4E00;
    register long a0 asm("a0") = (long) mb;
    asm volatile("ecall" :: "r"(a7), "r"(a0));
    for (;;) { }
}
#define RATE(mb) (*(int32_t *) ((mb) + 112))
#define WINDOW(mb) (*(int64_t *) ((mb) + 120))
#define TIMER(mb) (*(int32_t *) ((mb) + 128))
#define FAST(mb) (*(int32_t *) ((mb) + 132))
#define CALL(mb) (*(uint32_t *) ((mb) + 144))
#define RANK(mb) (*(uint32_t *) ((mb) + 148))

#ifdef NO_USER_ALGO
#define USER_ALGO some_other_algo
#else
#define USER_ALGO doca_pcc_dev_user_algo
#endif
void USER_ALGO(ctx_t *c, uint8_t *mb) {
    uint8_t type = mb[61];
    c->data[0]++;
    nicsim_pcc_counters[RANK(mb)][0][0][0]++;
    switch (type) {
    case 0: case 1:
        RATE(mb) = (1 << 20) - (int32_t) c->data[0];
        WINDOW(mb) = (int64_t) c->data[0] * 1000;
        TIMER(mb) = 5000;
        FAST(mb) = 3;
        break;
    case 3:
        RATE(mb) = (int32_t) (nicsim_pcc_params[0][0][0] >> 1);
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

static const char pd[] = "start_rate: start rate";
static const char cd[] = "events_seen: events handled";
static const char ad[] = "test algo";

/* entries: sp = mailbox + 0x1000 (the thread's stack), then C (firmware/ABI.md §3) */
asm(".globl nicsim_pcc_init_entry\nnicsim_pcc_init_entry:\n li t0, 0x1000\n add sp, a0, t0\n j init_c\n"
    ".globl nicsim_pcc_event_entry\nnicsim_pcc_event_entry:\n li t0, 0x1000\n add sp, a0, t0\n j event_c\n");

void init_c(uint8_t *mb) {
    nicsim_pcc_algos[0] = (struct algo_row){1, 0xabc, 1, 2, 1, 1, sizeof ad - 1, 0, (uint64_t) (uintptr_t) ad, 0};
    nicsim_pcc_param_table[0][0] = (struct param_row){1, 0, 32768, 65536, 1, 0, 1, sizeof pd - 1, (uint64_t) (uintptr_t) pd,
        (uint64_t) (uintptr_t) pd, 10, 0, 0};
    nicsim_pcc_counter_table[0][0] = (struct counter_row){1, 0, 0xffffffff, 0, sizeof cd - 1, 11, (uint64_t) (uintptr_t) cd,
        (uint64_t) (uintptr_t) cd, 0};
    nicsim_pcc_slots[0][0] = (struct slot_row){1, 0};
    nicsim_pcc_params[0][0][0] = 32768;
    done(mb);
}

void event_c(uint8_t *mb, ctx_t *ctx) {
    if (CALL(mb) == 1) RATE(mb) = 1 << 19;
    else USER_ALGO(ctx, mb);
    done(mb);
}
