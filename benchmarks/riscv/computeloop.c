/*
 * `riscv run`'s speed on a compute loop (issue 19: at least 150 M instructions/s on bf3-dpa): the
 * loop body of the JMH RiscvCoreBenchmark.computeLoop1M (an 8 KiB array walk: a load, a multiply,
 * ALU ops and the loop branch), 1024 elements x PASSES, in inline assembly so the compiler cannot
 * change it; 2,048,604,136 instructions retire with the default PASSES. Build and time it with the
 * runtime of riscv-core's QEMU differential programs (riscv-core/src/test/c/README.md):
 *
 *   R=riscv-core/src/test/c
 *   riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -O2 -ffreestanding -fno-builtin \
 *       -fno-tree-loop-distribute-patterns -nostdlib -static -I$R/rt -T $R/rt/link.ld \
 *       -o computeloop.elf $R/rt/crt0.S $R/rt/rt.c benchmarks/riscv/computeloop.c -lgcc
 *   time ./nicsim riscv run --model bf3-dpa --max-instructions 3000000000 computeloop.elf
 *
 * M instructions/s = instructions retired (the summary's first line) / wall time (JVM start
 * included). Exit status: the low 7 bits of the three accumulators' XOR (127; qemu-riscv64 agrees).
 * Figures: docs/performance.md, "RISC-V core".
 */
#include "rt.h"
#ifndef PASSES
#define PASSES 200000
#endif
static unsigned long data[1024];
int main(void) {
    for (int i = 0; i < 1024; i++) data[i] = (unsigned long)i * 0x9E3779B97F4A7C15UL;
    unsigned long a1 = 0, a2 = 0, a3 = 0;
    for (long p = 0; p < PASSES; p++) {
        unsigned long a0 = 0, t0, t1, t2, t3;
        __asm__ volatile(
            "1: slli %[t0], %[a0], 3\n"
            "   add  %[t0], %[t0], %[s0]\n"
            "   ld   %[t1], 0(%[t0])\n"
            "   add  %[a1], %[a1], %[t1]\n"
            "   mul  %[t2], %[t1], %[a0]\n"
            "   xor  %[a2], %[a2], %[t2]\n"
            "   srli %[t3], %[t1], 7\n"
            "   or   %[a3], %[a3], %[t3]\n"
            "   addi %[a0], %[a0], 1\n"
            "   blt  %[a0], %[s1], 1b\n"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
              [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
            : [s0] "r"(data), [s1] "r"(1024L)
            : "memory");
    }
    return (int)((a1 ^ a2 ^ a3) & 0x7f);
}
