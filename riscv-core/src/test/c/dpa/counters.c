/*
 * The per-thread counters and fences of firmware/include/dpaintrin.h (the DPA toolchain's names)
 * on riscv-core: DpaIntrinsicsTest runs it under the e31 model and checks the deltas by hand.
 * inst_ret: the first rdinstret reads n, three nops and itself retire before the second reads
 * n + 4. cycles: two back-to-back rdcycle issue one cycle apart (e31: a CSR read issues every
 * cycle; nothing waits for its result here).
 */
#include <dpaintrin.h>
#include "rt.h"

int main(void)
{
    uint64_t i0 = __dpa_thread_inst_ret();
    __asm__ volatile("nop\n nop\n nop");
    uint64_t i1 = __dpa_thread_inst_ret();
    uint64_t c0 = __dpa_thread_cycles();
    uint64_t c1 = __dpa_thread_cycles();
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
    __dpa_thread_memory_writeback();
    __dpa_thread_window_fence(__DPA_W, __DPA_W);
    __dpa_thread_system_fence();
    rt_kv_udec("inst_ret_delta", i1 - i0);
    rt_kv_udec("cycles_delta", c1 - c0);
    rt_flush();
    return 0;
}
