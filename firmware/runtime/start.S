/*
 * start.S - entries of a nicsim firmware ELF (firmware/ABI.md section 3).
 *   nicsim_pcc_event_entry: a0 = mailbox, a1 = flow context; event or flow-init call
 *   nicsim_pcc_init_entry:  a0 = mailbox; load init (doca_pcc_dev_user_init)
 *   _start: e_entry, for ./nicsim riscv run and qemu-riscv64: calls nicsim_main (weak default:
 *           describe the firmware) on thread slot 0's mailbox, then exit(status)
 */
#include "nicsim_pcc_abi.h"

    .section .text.entry, "ax"
    .globl nicsim_pcc_event_entry
    .type nicsim_pcc_event_entry, @function
nicsim_pcc_event_entry:
    li t0, NICSIM_PCC_THREAD_SLOT_BYTES
    add sp, a0, t0
    .option push
    .option norelax
    lla gp, __global_pointer$
    .option pop
    mv tp, a0
    call nicsim_rt_event
    mv a0, tp
    li a7, NICSIM_ECALL_DONE
    ecall
    ebreak
    .size nicsim_pcc_event_entry, . - nicsim_pcc_event_entry

    .globl nicsim_pcc_init_entry
    .type nicsim_pcc_init_entry, @function
nicsim_pcc_init_entry:
    li t0, NICSIM_PCC_THREAD_SLOT_BYTES
    add sp, a0, t0
    .option push
    .option norelax
    lla gp, __global_pointer$
    .option pop
    mv tp, a0
    call nicsim_rt_init
    mv a0, tp
    li a7, NICSIM_ECALL_DONE
    ecall
    ebreak
    .size nicsim_pcc_init_entry, . - nicsim_pcc_init_entry

    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    lla gp, __global_pointer$
    .option pop
    andi sp, sp, -16
    li tp, NICSIM_PCC_THREADS_BASE
    call nicsim_main
    li a7, 93
    ecall
    ebreak
    .size _start, . - _start
