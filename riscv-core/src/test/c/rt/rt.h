/*
 * Freestanding runtime for the RISC-V differential test programs.
 * Output goes through the Linux write syscall (ecall, a7 = 64) to fd 1;
 * exit through exit (a7 = 93). Both QEMU user mode and nicsim implement these.
 * Integer types come from the compiler (stdint.h is freestanding).
 */
#ifndef RT_H
#define RT_H

#include <stdint.h>
#include <stddef.h>

/* Linux write(fd, buf, len); returns the byte count or a negative errno. */
long rt_write(int fd, const void *buf, size_t len);
/* Linux exit(status); does not return. */
void rt_exit(int status) __attribute__((noreturn));

/* Buffered output to fd 1: flushed when full, on rt_flush() and before exit. */
void rt_putc(char c);
void rt_puts(const char *s);              /* without a newline */
void rt_put_dec(int64_t v);               /* signed decimal */
void rt_put_udec(uint64_t v);             /* unsigned decimal */
void rt_put_hex(uint64_t v, int digits);  /* lower-case hex, zero-padded to digits (1..16) */
void rt_flush(void);

/* "name=<dec> (0x<hex>)\n" with the hex width given in digits. */
void rt_kv_dec(const char *name, int64_t v);
void rt_kv_udec(const char *name, uint64_t v);
void rt_kv_hex(const char *name, uint64_t v, int digits);

/* Freestanding gcc may emit calls to these for struct copies and loops. */
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* Keeps the compiler from folding a value known at compile time. */
#define OPAQUE(x) ({ __auto_type _v = (x); __asm__ volatile("" : "+r"(_v)); _v; })

#define XLEN_BITS __riscv_xlen

#endif
