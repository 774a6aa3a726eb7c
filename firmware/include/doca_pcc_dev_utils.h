/*
 * doca_pcc_dev_utils.h - fixed point, time, threads, fences and output of the DOCA PCC device
 * API, nicsim implementation (runtime/fxp.c, runtime/rt.c). Written for nicsim, not copied
 * from NVIDIA. fxp_recip/log2/power2 are C routines here (ABI.md section 7 says why).
 */
#ifndef DOCA_PCC_DEV_UTILS_H
#define DOCA_PCC_DEV_UTILS_H

#include "doca_pcc_dev_common.h"
#include "nicsim_dpa_fence.h"
#if defined(__has_include)
#if __has_include(<dpaintrin.h>)
#include <dpaintrin.h>
#endif
#endif

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

/** @return simulated time at dispatch, 1 us tick */
uint64_t doca_pcc_dev_get_thread_time(void);

/** @return simulated time at dispatch, us, all 64 bits (= doca_pcc_dev_get_thread_time) */
uint64_t doca_pcc_dev_get_timer(void);

/** @return low 32 bits of doca_pcc_dev_get_timer: microseconds, as on the DPA (Addendum A.4) */
uint32_t doca_pcc_dev_get_timer_lo(void);

/** Memory fences, mapped onto __dpa_thread_fence as DOCA maps them (Addendum A.10). */
static inline void doca_pcc_dev_fence_all(void)
{
    __dpa_thread_fence(__DPA_SYSTEM, __DPA_RW, __DPA_RW);
}

static inline void doca_pcc_dev_fence_memory(void)
{
    __dpa_thread_fence(__DPA_MEMORY, __DPA_RW, __DPA_RW);
}

static inline void doca_pcc_dev_fence_io(void)
{
    __dpa_thread_fence(__DPA_MMIO, __DPA_RW, __DPA_RW);
}

static inline void doca_pcc_dev_fence_w_r(void)
{
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_R);
}

#endif
