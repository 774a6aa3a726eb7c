/*
 * Pointer chase: load-to-use latency against working-set size, written from the method of the
 * BlueField-3 DPA characterisation (Chen et al. 2024, BenchBF3; ../shared/specs/
 * bf3-dpa-published-figures.md): one thread follows pointers through a random cyclic
 * permutation of 64-byte elements (one pointer per element, so one element per 64-byte line),
 * working sets 512 B to 16 MiB, one point per doubling, timed with the thread's cycle counter.
 *
 * Per working set: Fisher-Yates shuffles the element order (xorshift64 random numbers, a fixed
 * seed), links order[k] -> order[k+1] and the last back to the first (one cycle through every
 * element, so no hardware or model can learn a stride), chases one full lap to warm the caches,
 * then times max(n, 4096) loads, 8 per loop iteration. Prints, per size:
 *
 *     ptrchase <bytes> <cycles per load x 100>
 *
 * and exits with 0. The cycle counter is read with `csrrs rd, cycle, x0` written as .insn
 * (the rv64imac multilib's -march has no Zicsr). Not part of the QEMU differential (the cycle
 * counts are the subject, and QEMU keeps no timing).
 */
#include "rt.h"

#define MAX_BYTES (16u << 20)
#define ELEM_WORDS 8 /* 64 bytes of uint64_t */

static uint64_t arena[MAX_BYTES / 8] __attribute__((aligned(64)));
static uint32_t order[MAX_BYTES / 64];
static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static inline uint64_t rdcycle(void) {
    uint64_t c;
    __asm__ volatile(".insn i 0x73, 2, %0, x0, -1024" : "=r"(c)); /* csrrs c, cycle (0xc00), x0 */
    return c;
}

static uint64_t *build(uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        order[i] = i;
    }
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t) (next_rand() % (i + 1));
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t from = order[k];
        uint32_t to = order[k + 1 == n ? 0 : k + 1];
        arena[(uint64_t) from * ELEM_WORDS] = (uint64_t) (uintptr_t) &arena[(uint64_t) to * ELEM_WORDS];
    }
    return &arena[(uint64_t) order[0] * ELEM_WORDS];
}

static uint64_t *chase(uint64_t *p, uint32_t loads) {
    for (uint32_t i = loads / 8; i != 0; i--) {
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
        p = (uint64_t *) *p;
    }
    return p;
}

int main(void) {
    uint64_t sink = 0;
    for (uint32_t bytes = 512; bytes <= MAX_BYTES; bytes *= 2) {
        uint32_t n = bytes / 64;
        uint64_t *p = build(n);
        p = chase(p, n < 8 ? 8 : n);
        uint32_t loads = n < 4096 ? 4096 : n;
        uint64_t c0 = rdcycle();
        p = chase(p, loads);
        uint64_t c1 = rdcycle();
        sink ^= (uint64_t) (uintptr_t) p;
        rt_puts("ptrchase ");
        rt_put_udec(bytes);
        rt_putc(' ');
        rt_put_udec((c1 - c0) * 100 / loads);
        rt_putc('\n');
    }
    rt_flush();
    return sink == 1 ? 1 : 0;
}
