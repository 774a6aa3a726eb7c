/*
 * Freestanding runtime for the RISC-V differential test programs: syscalls,
 * buffered decimal/hex printing, and the mem* functions gcc may call.
 * Built with -fno-tree-loop-distribute-patterns so memset/memcpy do not call
 * themselves. Single-threaded.
 */
#include "rt.h"

long rt_write(int fd, const void *buf, size_t len)
{
    register long a0 __asm__("a0") = fd;
    register long a1 __asm__("a1") = (long)buf;
    register long a2 __asm__("a2") = (long)len;
    register long a7 __asm__("a7") = 64;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

void rt_exit(int status)
{
    rt_flush();
    register long a0 __asm__("a0") = status;
    register long a7 __asm__("a7") = 93;
    __asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
    for (;;) {
    }
}

static char out_buf[512];
static size_t out_len;

void rt_flush(void)
{
    size_t done = 0;
    while (done < out_len) {
        long n = rt_write(1, out_buf + done, out_len - done);
        if (n <= 0) {
            break;
        }
        done += (size_t)n;
    }
    out_len = 0;
}

void rt_putc(char c)
{
    if (out_len == sizeof out_buf) {
        rt_flush();
    }
    out_buf[out_len++] = c;
}

void rt_puts(const char *s)
{
    while (*s) {
        rt_putc(*s++);
    }
}

void rt_put_udec(uint64_t v)
{
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);   /* __umoddi3/__udivdi3 on RV32 */
        v /= 10;
    } while (v != 0);
    while (n > 0) {
        rt_putc(tmp[--n]);
    }
}

void rt_put_dec(int64_t v)
{
    if (v < 0) {
        rt_putc('-');
        rt_put_udec(-(uint64_t)v);
    } else {
        rt_put_udec((uint64_t)v);
    }
}

void rt_put_hex(uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    if (digits < 1) {
        digits = 1;
    }
    if (digits > 16) {
        digits = 16;
    }
    for (int i = digits - 1; i >= 0; i--) {
        rt_putc(hex[(v >> (4 * i)) & 0xf]);
    }
}

void rt_kv_dec(const char *name, int64_t v)
{
    rt_puts(name);
    rt_putc('=');
    rt_put_dec(v);
    rt_puts(" (0x");
    rt_put_hex((uint64_t)v, 16);
    rt_puts(")\n");
}

void rt_kv_udec(const char *name, uint64_t v)
{
    rt_puts(name);
    rt_putc('=');
    rt_put_udec(v);
    rt_putc('\n');
}

void rt_kv_hex(const char *name, uint64_t v, int digits)
{
    rt_puts(name);
    rt_puts("=0x");
    rt_put_hex(v, digits);
    rt_putc('\n');
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--) {
        *d++ = (unsigned char)c;
    }
    return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) {
        *d++ = *s++;
    }
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--) {
            *d++ = *s++;
        }
    } else {
        d += n;
        s += n;
        while (n--) {
            *--d = *--s;
        }
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a;
    const unsigned char *q = b;
    for (; n; n--, p++, q++) {
        if (*p != *q) {
            return *p < *q ? -1 : 1;
        }
    }
    return 0;
}
