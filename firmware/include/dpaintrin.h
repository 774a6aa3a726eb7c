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
 * Fences: __dpa_thread_fence(space, pred_ops, succ_ops) and the __DPA_* names come from
 * nicsim_dpa_fence.h, included here (one definition for both headers).
 */
#ifndef DPAINTRIN_H
#define DPAINTRIN_H

#include <stdint.h>

/* fences, the __DPA_* space and operation names and the toolchain's shorthands (Addendum A.10) */
#include "nicsim_dpa_fence.h"

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

#endif /* DPAINTRIN_H */
