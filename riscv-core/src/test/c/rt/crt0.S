/*
 * Start-up code of the freestanding runtime used by the differential tests
 * (QEMU user mode vs ./nicsim riscv run). No libc: _start sets gp and sp,
 * calls main(), and passes main's return value to rt_exit(), which flushes
 * the output buffer and makes the Linux exit syscall (ecall with a7 = 93)
 * that both QEMU user mode and nicsim implement.
 *
 * The stack is an array in .bss so that it lives inside a PT_LOAD segment:
 * nicsim's loader maps only the ELF's segments plus its declared RAM.
 * Works for RV32 and RV64 (no XLEN-specific instructions).
 */
    .section .text.start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, rt_stack_top
    li      a0, 0              /* argc = 0, argv = NULL: main takes no arguments */
    li      a1, 0
    call    main
    call    rt_exit            /* flushes buffered output, then ecall 93 with main's return */
1:  j       1b                 /* not reached */
    .size _start, . - _start

    .section .bss
    .balign 16
    .globl rt_stack
rt_stack:
    .space  65536
    .globl rt_stack_top
rt_stack_top:
