/*
 * print.c - doca_pcc_dev_printf and trace output: a small vsnprintf of nicsim's own and the
 * ecalls of firmware/ABI.md section 3 (with a write(1) fallback for riscv run / QEMU).
 */
#include <stdarg.h>
#include "nicsim_pcc.h"

static long ecall3(long n, long a0, long a1, long a2)
{
    register long r_a0 __asm__("a0") = a0;
    register long r_a1 __asm__("a1") = a1;
    register long r_a2 __asm__("a2") = a2;
    register long r_a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a7) : "memory");
    return r_a0;
}

void nicsim_pcc_write(const char *buf, uint32_t len)
{
    if (ecall3(NICSIM_ECALL_PRINT, (long)(uintptr_t)buf, (long)len, 0) == -38) {
        ecall3(64, 1, (long)(uintptr_t)buf, (long)len); /* Linux write(1, buf, len) */
    }
}

struct out {
    char *buf;
    size_t size;
    size_t n;
};

static void put(struct out *o, char c)
{
    if (o->n + 1 < o->size) {
        o->buf[o->n] = c;
    }
    o->n++;
}

static void put_num(struct out *o, uint64_t v, unsigned base, int upper, int neg, int width, char pad, int left)
{
    char tmp[24];
    int len = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        tmp[len++] = digits[v % base];
        v /= base;
    } while (v != 0);
    int total = len + (neg ? 1 : 0);
    if (!left && pad == ' ') {
        for (; total < width; total++) {
            put(o, ' ');
        }
    }
    if (neg) {
        put(o, '-');
    }
    if (!left && pad == '0') {
        for (; total < width; total++) {
            put(o, '0');
        }
    }
    while (len > 0) {
        put(o, tmp[--len]);
    }
    if (left) {
        for (; total < width; total++) {
            put(o, ' ');
        }
    }
}

int nicsim_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = {buf, size, 0};
    for (const char *p = fmt; *p != '\0'; p++) {
        if (*p != '%') {
            put(&o, *p);
            continue;
        }
        p++;
        int left = 0;
        char pad = ' ';
        int width = 0;
        int lng = 0;
        for (;; p++) {
            if (*p == '-') {
                left = 1;
            } else if (*p == '0') {
                pad = '0';
            } else {
                break;
            }
        }
        while (*p >= '0' && *p <= '9') {
            width = width * 10 + (*p++ - '0');
        }
        while (*p == 'l' || *p == 'z') {
            lng++;
            p++;
        }
        switch (*p) {
            case 'd':
            case 'i': {
                int64_t v = lng ? va_arg(ap, long) : va_arg(ap, int);
                put_num(&o, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, 10, 0, v < 0, width, pad, left);
                break;
            }
            case 'u':
            case 'x':
            case 'X': {
                uint64_t v = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
                put_num(&o, v, *p == 'u' ? 10 : 16, *p == 'X', 0, width, pad, left);
                break;
            }
            case 'p':
                put(&o, '0');
                put(&o, 'x');
                put_num(&o, (uint64_t)(uintptr_t)va_arg(ap, void *), 16, 0, 0, width, pad, left);
                break;
            case 'c':
                put(&o, (char)va_arg(ap, int));
                break;
            case 's': {
                const char *s = va_arg(ap, const char *);
                if (s == 0) {
                    s = "(null)";
                }
                int len = 0;
                while (s[len] != '\0') {
                    len++;
                }
                if (!left) {
                    for (int i = len; i < width; i++) {
                        put(&o, ' ');
                    }
                }
                for (int i = 0; i < len; i++) {
                    put(&o, s[i]);
                }
                if (left) {
                    for (int i = len; i < width; i++) {
                        put(&o, ' ');
                    }
                }
                break;
            }
            case '%':
                put(&o, '%');
                break;
            case '\0':
                p--;
                break;
            default:
                put(&o, '%');
                put(&o, *p);
                break;
        }
    }
    if (size > 0) {
        buf[o.n < size ? o.n : size - 1] = '\0';
    }
    return (int)o.n;
}

int nicsim_snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = nicsim_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

void doca_pcc_dev_printf(const char *fmt, ...)
{
    char buf[NICSIM_PRINT_MAX_BYTES];
    va_list ap;
    va_start(ap, fmt);
    int n = nicsim_vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    uint32_t len = n < (int)sizeof buf ? (uint32_t)n : (uint32_t)sizeof buf - 1;
    nicsim_pcc_write(buf, len);
}

void doca_pcc_dev_trace_5(int format_id, uint64_t arg1, uint64_t arg2, uint64_t arg3, uint64_t arg4,
                          uint64_t arg5)
{
    register long a0 __asm__("a0") = (long)(uint32_t)format_id;
    register uint64_t a1 __asm__("a1") = arg1;
    register uint64_t a2 __asm__("a2") = arg2;
    register uint64_t a3 __asm__("a3") = arg3;
    register uint64_t a4 __asm__("a4") = arg4;
    register uint64_t a5 __asm__("a5") = arg5;
    register long a7 __asm__("a7") = NICSIM_ECALL_TRACE;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a7) : "memory");
}

void doca_pcc_dev_trace_flush(void)
{
    ecall3(NICSIM_ECALL_TRACE_FLUSH, 0, 0, 0);
}
