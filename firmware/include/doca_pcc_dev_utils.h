/*
 * doca_pcc_dev_utils.h - fixed point, time, threads, fences and output of the DOCA PCC device
 * API, nicsim implementation (runtime/fxp.c, runtime/print.c). Written for nicsim, not copied
 * from NVIDIA. fxp_recip/log2/power2 are C routines here (ABI.md section 7 says why).
 */
#ifndef DOCA_PCC_DEV_UTILS_H
#define DOCA_PCC_DEV_UTILS_H

#include "doca_pcc_dev_common.h"

/** @return the full 64-bit product a x b */
static inline uint64_t doca_pcc_dev_mult(uint32_t a, uint32_t b)
{
    return (uint64_t)a * b;
}

/** @return (a x b) >> 16: the product of two 16.16 numbers, truncated */
static inline uint32_t doca_pcc_dev_fxp_mult(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b) >> 16);
}

/** @return 32 - count of leading zeros of x (0 for x = 0) */
static inline uint32_t doca_pcc_dev_fls(uint32_t x)
{
    return x == 0 ? 0u : 32u - (uint32_t)__builtin_clz(x);
}

/** @return floor(2^32 / a), 16.16 reciprocal of a 16.16 value; 0xFFFFFFFF for a <= 1 */
uint32_t doca_pcc_dev_fxp_recip(uint32_t a);

/** @return log2(a / 65536) as signed 16.16, truncated; INT32_MIN for a = 0 */
int32_t doca_pcc_dev_fxp_log2(uint32_t a);

/** @return 2^(a / 65536) for signed 16.16 a, as 16.16, truncated; 0xFFFFFFFF when too large */
uint32_t doca_pcc_dev_fxp_power2(int32_t a);

/** @return the global hardware-thread index, 0..255 (mailbox thread_rank) */
uint32_t doca_pcc_dev_thread_rank(void);

/** @return simulated time at dispatch, 1 us tick */
uint64_t doca_pcc_dev_get_thread_time(void);

/** @return low 32 bits of simulated time at dispatch, ns */
uint32_t doca_pcc_dev_get_timer_lo(void);

/** Memory fences. */
static inline void doca_pcc_dev_fence_all(void)
{
    __asm__ volatile("fence rw, rw" ::: "memory");
}

static inline void doca_pcc_dev_fence_memory(void)
{
    __asm__ volatile("fence rw, rw" ::: "memory");
}

static inline void doca_pcc_dev_fence_io(void)
{
    __asm__ volatile("fence io, io" ::: "memory");
}

static inline void doca_pcc_dev_fence_w_r(void)
{
    __asm__ volatile("fence w, r" ::: "memory");
}

/**
 * Prints into the run's firmware log (ecall NICSIM_ECALL_PRINT; under riscv run / QEMU, to
 * stdout). Formats: %d %i %u %x %X %p %c %s %% with l/ll/z, width and 0/- flags; output beyond
 * 255 bytes per call is cut.
 */
int doca_pcc_dev_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));

/** Records format_id and five 64-bit values in the run's trace (ecall NICSIM_ECALL_TRACE). */
void doca_pcc_dev_trace_5(uint32_t format_id, uint64_t arg1, uint64_t arg2, uint64_t arg3, uint64_t arg4,
                          uint64_t arg5);

/** Flushes the trace (ecall NICSIM_ECALL_TRACE_FLUSH). */
void doca_pcc_dev_trace_flush(void);

#endif
