/*
 * The Linux system calls the core implements, with the results Linux (and so
 * QEMU user mode) gives: write (64) to fd 1 and 2 returns the byte count, a
 * zero-length write returns 0, a write to a closed fd returns -EBADF (-9) and
 * one from an unmapped buffer -EFAULT (-14); the program ends with exit_group
 * (94), not exit, with status 77. Only stdout and the status are compared; the
 * stderr line checks that fd 2 does not leak into stdout.
 */
#include "rt.h"

static long syscall3(long number, long a, long b, long c)
{
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a7 __asm__("a7") = number;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

int main(void)
{
    static const char hello[] = "hello from write(1)\n";
    static const char err[] = "to stderr, not compared\n";
    long r_out = syscall3(64, 1, (long)hello, sizeof hello - 1);
    long r_zero = syscall3(64, 1, (long)hello, 0);
    long r_err = syscall3(64, 2, (long)err, sizeof err - 1);
    long r_badfd = syscall3(64, 9, (long)hello, 5);
    long r_fault = syscall3(64, 1, 0x1000L, 4);   /* below the first segment at 0x10000 */
    rt_kv_dec("write(1)", r_out);
    rt_kv_dec("write(1, len 0)", r_zero);
    rt_kv_dec("write(2)", r_err);
    rt_kv_dec("write(9) EBADF", r_badfd);
    rt_kv_dec("write(unmapped) EFAULT", r_fault);
    rt_flush();
    syscall3(94, 77, 0, 0);   /* exit_group */
    return 1;                 /* not reached */
}
