/*
 * dpaintrin.h - the DPA intrinsics micro-benchmarks and DOCA PCC programs use, for nicsim's
 * RV64 cores: per-thread counters and thread fences, under the names of NVIDIA's DPA toolchain
 * (FlexIO SDK; DOCA SDK 3.0 API reference, dpaintrin.h), so code written for the DPA builds
 * unchanged. See docs/firmware.md.
 *
 * Counters (riscv-core: each hardware thread of a core has its own):
 *   __dpa_thread_cycles()    the cycle CSR (rdcycle): the core's clock as this thread sees it,
 *                            in core cycles (1.8 GHz on the DPA).
 *   __dpa_thread_inst_ret()  the instret CSR (rdinstret): instructions this thread retired.
 *
 * Fences: __dpa_thread_fence(space, pred_ops, succ_ops) orders this thread's pred_ops before the
 * fence before its succ_ops after it (as seen by other threads, the host and the NIC). Spaces
 * __DPA_HEAP, __DPA_MEMORY, __DPA_MMIO, __DPA_SYSTEM; operations __DPA_R, __DPA_W, __DPA_RW.
 * On RISC-V (our rendering, a RISC-V fence at least as strong as asked): MEMORY and HEAP ->
 * "fence rw, rw", MMIO -> "fence io, io", SYSTEM -> "fence iorw, iorw". With constant arguments
 * the choice folds to one instruction.
 */
#ifndef DPAINTRIN_H
#define DPAINTRIN_H

#include <stdint.h>

/* memory spaces and operation sets of __dpa_thread_fence (opaque tokens: pass them through) */
#define __DPA_HEAP 0
#define __DPA_MEMORY 1
#define __DPA_MMIO 2
#define __DPA_SYSTEM 3
#define __DPA_R 1
#define __DPA_W 2
#define __DPA_RW 3

/** Cycles on this hardware thread's clock (RISC-V cycle CSR). */
static inline __attribute__((always_inline)) uint64_t __dpa_thread_cycles(void)
{
    uint64_t c;
    __asm__ volatile("rdcycle %0" : "=r"(c));
    return c;
}

/** Instructions this hardware thread retired (RISC-V instret CSR). */
static inline __attribute__((always_inline)) uint64_t __dpa_thread_inst_ret(void)
{
    uint64_t n;
    __asm__ volatile("rdinstret %0" : "=r"(n));
    return n;
}

/** Orders this thread's pred_ops in space before its succ_ops (see the header comment). */
static inline __attribute__((always_inline)) void __dpa_thread_fence(int space, int pred_ops, int succ_ops)
{
    (void) pred_ops;
    (void) succ_ops;
    if (space == __DPA_SYSTEM) {
        __asm__ volatile("fence iorw, iorw" ::: "memory");
    } else if (space == __DPA_MMIO) {
        __asm__ volatile("fence io, io" ::: "memory");
    } else {
        __asm__ volatile("fence rw, rw" ::: "memory");
    }
}

/* the toolchain's shorthands */
#define __dpa_thread_memory_fence(pred_ops, succ_ops) __dpa_thread_fence(__DPA_MEMORY, (pred_ops), (succ_ops))
#define __dpa_thread_outbox_fence(pred_ops, succ_ops) __dpa_thread_fence(__DPA_MMIO, (pred_ops), (succ_ops))
#define __dpa_thread_window_fence(pred_ops, succ_ops) __dpa_thread_fence(__DPA_MMIO, (pred_ops), (succ_ops))
#define __dpa_thread_system_fence() __dpa_thread_fence(__DPA_SYSTEM, __DPA_RW, __DPA_RW)
#define __dpa_thread_window_read_inv() __dpa_thread_fence(__DPA_MMIO, __DPA_R, __DPA_R)
#define __dpa_thread_window_writeback() __dpa_thread_fence(__DPA_MMIO, __DPA_W, __DPA_W)
#define __dpa_thread_memory_writeback() __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W)

#endif /* DPAINTRIN_H */
