/*
 * nicsim_dpa_fence.h - the memory-ordering part of the DPA toolchain's <dpaintrin.h> (Addendum
 * A.10): __dpa_thread_fence(space, pred_ops, succ_ops), the __DPA_* space and operation names and
 * the shorthands. Kept apart from dpaintrin.h (the cycle/instret counters live there) so both can
 * grow without clashing; doca_pcc_dev_utils.h includes both. On DPA the names are opaque compiler
 * tokens; here they are small integers that programs only pass through. RV64 rendering (nicsim's
 * choice): MEMORY and HEAP -> `fence` with r/w bits, MMIO -> i/o bits, SYSTEM -> `fence iorw, iorw`.
 */
#ifndef NICSIM_DPA_FENCE_H
#define NICSIM_DPA_FENCE_H

#define __DPA_HEAP 0
#define __DPA_MEMORY 1
#define __DPA_MMIO 2
#define __DPA_SYSTEM 3
#define __DPA_R 1
#define __DPA_W 2
#define __DPA_RW 3

#define NICSIM_FENCE_(p, s) __asm__ volatile("fence " p ", " s ::: "memory")

/**
 * The calling thread's pred_ops before the fence become visible before its succ_ops after it.
 * With constant arguments (as every program passes them) it inlines to one fence instruction.
 */
static inline __attribute__((always_inline)) void __dpa_thread_fence(int space, int pred_ops, int succ_ops)
{
    if (space == __DPA_SYSTEM) {
        NICSIM_FENCE_("iorw", "iorw");
    } else if (space == __DPA_MMIO) {
        if (pred_ops == __DPA_R && succ_ops == __DPA_R) NICSIM_FENCE_("i", "i");
        else if (pred_ops == __DPA_R && succ_ops == __DPA_W) NICSIM_FENCE_("i", "o");
        else if (pred_ops == __DPA_W && succ_ops == __DPA_R) NICSIM_FENCE_("o", "i");
        else if (pred_ops == __DPA_W && succ_ops == __DPA_W) NICSIM_FENCE_("o", "o");
        else NICSIM_FENCE_("io", "io");
    } else {
        if (pred_ops == __DPA_R && succ_ops == __DPA_R) NICSIM_FENCE_("r", "r");
        else if (pred_ops == __DPA_R && succ_ops == __DPA_W) NICSIM_FENCE_("r", "w");
        else if (pred_ops == __DPA_W && succ_ops == __DPA_R) NICSIM_FENCE_("w", "r");
        else if (pred_ops == __DPA_W && succ_ops == __DPA_W) NICSIM_FENCE_("w", "w");
        else NICSIM_FENCE_("rw", "rw");
    }
}

#define __dpa_thread_memory_fence(pred_ops, succ_ops) __dpa_thread_fence(__DPA_MEMORY, pred_ops, succ_ops)
#define __dpa_thread_outbox_fence(pred_ops, succ_ops) __dpa_thread_fence(__DPA_MMIO, pred_ops, succ_ops)
#define __dpa_thread_window_fence(pred_ops, succ_ops) __dpa_thread_fence(__DPA_MMIO, pred_ops, succ_ops)
#define __dpa_thread_system_fence() __dpa_thread_fence(__DPA_SYSTEM, __DPA_RW, __DPA_RW)
#define __dpa_thread_window_read_inv() __dpa_thread_fence(__DPA_MMIO, __DPA_R, __DPA_R)
#define __dpa_thread_window_writeback() __dpa_thread_fence(__DPA_MMIO, __DPA_W, __DPA_W)
#define __dpa_thread_memory_writeback() __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W)

#endif
