/*
 * 64-bit multiply and divide through C: on RV64 the compiler emits mul,
 * mulh, mulhu, mulhsu (for the __int128 products), div, divu, rem, remu
 * directly; on RV32 the same source becomes mul/mulhu sequences and the
 * libgcc routines __muldi3, __divdi3, __udivdi3, __moddi3, __umoddi3, which
 * run divu/remu on 32-bit halves. Covers division by zero, INT64_MIN / -1
 * overflow and wrap-around products (unprivileged spec 20191213, table 7.1).
 *
 * C leaves division by zero and INT64_MIN / -1 undefined; both interpreters
 * run the same binary, so whatever instruction sequence the compiler chose
 * must give the same bits on both. Exit status 0.
 */
#include "rt.h"

static uint32_t h32 = 2166136261u;

static void mix(uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h32 ^= (uint32_t)(v & 0xff);
        h32 *= 16777619u;
        v >>= 8;
    }
}

static void line(const char *what, uint64_t v)
{
    rt_puts(what);
    rt_puts(" 0x");
    rt_put_hex(v, 16);
    rt_putc(' ');
    rt_put_dec((int64_t)v);
    rt_putc('\n');
    mix(v);
}

/* divide by zero and overflow via inline instructions on RV64 (defined by the ISA) */
#if XLEN_BITS == 64
static int64_t div64(int64_t a, int64_t b) { int64_t r; __asm__ volatile("div %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static int64_t rem64(int64_t a, int64_t b) { int64_t r; __asm__ volatile("rem %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint64_t divu64(uint64_t a, uint64_t b) { uint64_t r; __asm__ volatile("divu %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint64_t remu64(uint64_t a, uint64_t b) { uint64_t r; __asm__ volatile("remu %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static int64_t mulhsu64(int64_t a, uint64_t b) { int64_t r; __asm__ volatile("mulhsu %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
#else
/* RV32: 32-bit instructions, and the 64-bit C operators through libgcc guarded against UB */
static int64_t div64(int64_t a, int64_t b) { return b == 0 ? -1 : (a == INT64_MIN && b == -1) ? a : a / b; }
static int64_t rem64(int64_t a, int64_t b) { return b == 0 ? a : (a == INT64_MIN && b == -1) ? 0 : a % b; }
static uint64_t divu64(uint64_t a, uint64_t b) { return b == 0 ? UINT64_MAX : a / b; }
static uint64_t remu64(uint64_t a, uint64_t b) { return b == 0 ? a : a % b; }
static int64_t mulhsu64(int64_t a, uint64_t b)
{
    /* high 64 bits of signed x unsigned from four 32x32 partial products */
    uint64_t al = (uint32_t)a, ah = (uint32_t)((uint64_t)a >> 32), bl = (uint32_t)b, bh = (uint32_t)(b >> 32);
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    if (a < 0) {
        hi -= b;    /* a as unsigned was a + 2^64 */
    }
    return (int64_t)hi;
}
/* libgcc's own answers for a zero divisor (its generic code divides by the zero on purpose) */
int64_t __divdi3(int64_t, int64_t);
uint64_t __udivdi3(uint64_t, uint64_t);
int64_t __moddi3(int64_t, int64_t);
uint64_t __umoddi3(uint64_t, uint64_t);
static int32_t div32(int32_t a, int32_t b) { int32_t r; __asm__ volatile("div %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static int32_t mulh32(int32_t a, int32_t b) { int32_t r; __asm__ volatile("mulh %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static int32_t mulhsu32(int32_t a, uint32_t b) { int32_t r; __asm__ volatile("mulhsu %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
static uint32_t mulhu32(uint32_t a, uint32_t b) { uint32_t r; __asm__ volatile("mulhu %0,%1,%2" : "=r"(r) : "r"(a), "r"(b)); return r; }
#endif

static uint64_t mulhu64(uint64_t a, uint64_t b)
{
#if XLEN_BITS == 64
    return (uint64_t)(((unsigned __int128)a * b) >> 64);     /* mulhu */
#else
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

static int64_t mulh64(int64_t a, int64_t b)
{
#if XLEN_BITS == 64
    return (int64_t)(((__int128)a * b) >> 64);                /* mulh */
#else
    uint64_t hi = mulhu64((uint64_t)a, (uint64_t)b);
    if (a < 0) hi -= (uint64_t)b;
    if (b < 0) hi -= (uint64_t)a;
    return (int64_t)hi;
#endif
}

static const int64_t V[] = {
    0, 1, -1, 2, -2, 3, 10, -10, INT64_MIN, INT64_MAX, INT64_MIN + 1,
    (int64_t)0x00000000ffffffffll, (int64_t)0x0000000100000000ll, (int64_t)0xffffffff00000000ll,
    (int64_t)0x0000000080000000ll, (int64_t)0x7fffffff, -(int64_t)0x80000000ll,
    (int64_t)0x123456789abcdef0ll, -(int64_t)0x0fedcba987654321ll, 1000000007, -65536, 65535,
};
#define NV ((int)(sizeof V / sizeof V[0]))

int main(void)
{
    rt_puts("muldiv64 xlen=");
    rt_put_dec(XLEN_BITS);
    rt_putc('\n');
    line("INT64_MIN/-1", (uint64_t)div64(OPAQUE(INT64_MIN), OPAQUE((int64_t)-1)));
    line("INT64_MIN%-1", (uint64_t)rem64(OPAQUE(INT64_MIN), OPAQUE((int64_t)-1)));
    line("5/0", (uint64_t)div64(OPAQUE((int64_t)5), OPAQUE((int64_t)0)));
    line("5%0", (uint64_t)rem64(OPAQUE((int64_t)5), OPAQUE((int64_t)0)));
    line("5u/0", divu64(OPAQUE((uint64_t)5), OPAQUE((uint64_t)0)));
    line("5u%0", remu64(OPAQUE((uint64_t)5), OPAQUE((uint64_t)0)));
    line("MAX*MAX", (uint64_t)OPAQUE(INT64_MAX) * (uint64_t)OPAQUE(INT64_MAX));
    line("mulh(MIN,MIN)", (uint64_t)mulh64(OPAQUE(INT64_MIN), OPAQUE(INT64_MIN)));
    line("mulh(MIN,-1)", (uint64_t)mulh64(OPAQUE(INT64_MIN), OPAQUE((int64_t)-1)));
    line("mulhu(-1,-1)", mulhu64(OPAQUE(UINT64_MAX), OPAQUE(UINT64_MAX)));
    line("mulhsu(-1,MAXU)", (uint64_t)mulhsu64(OPAQUE((int64_t)-1), OPAQUE(UINT64_MAX)));
    line("mulhsu(MIN,MAXU)", (uint64_t)mulhsu64(OPAQUE(INT64_MIN), OPAQUE(UINT64_MAX)));
#if XLEN_BITS == 32
    line("div32(MIN,-1)", (uint64_t)(int64_t)div32(OPAQUE((int32_t)INT32_MIN), OPAQUE((int32_t)-1)));
    line("div32(1,0)", (uint64_t)(int64_t)div32(OPAQUE((int32_t)1), OPAQUE((int32_t)0)));
    line("mulh32(MIN,MIN)", (uint64_t)(int64_t)mulh32(OPAQUE((int32_t)INT32_MIN), OPAQUE((int32_t)INT32_MIN)));
    line("mulhsu32(-1,MAXU)", (uint64_t)(int64_t)mulhsu32(OPAQUE((int32_t)-1), OPAQUE(UINT32_MAX)));
    line("mulhu32(MAXU,MAXU)", mulhu32(OPAQUE(UINT32_MAX), OPAQUE(UINT32_MAX)));
    line("__divdi3(5,0)", (uint64_t)__divdi3(OPAQUE((int64_t)5), OPAQUE((int64_t)0)));
    line("__udivdi3(1<<40,0)", __udivdi3(OPAQUE((uint64_t)1 << 40), OPAQUE((uint64_t)0)));
    line("__moddi3(-5,0)", (uint64_t)__moddi3(OPAQUE((int64_t)-5), OPAQUE((int64_t)0)));
    line("__umoddi3(1<<40,0)", __umoddi3(OPAQUE((uint64_t)1 << 40), OPAQUE((uint64_t)0)));
    line("__divdi3(MIN,-1)", (uint64_t)__divdi3(OPAQUE(INT64_MIN), OPAQUE((int64_t)-1)));
#endif
    /* full tables, one hash line per first operand */
    for (int i = 0; i < NV; i++) {
        uint32_t saved = h32;
        h32 = 2166136261u;      /* per-row hash: the same on RV32 and RV64 */
        for (int j = 0; j < NV; j++) {
            int64_t a = OPAQUE(V[i]), b = OPAQUE(V[j]);
            mix((uint64_t)a * (uint64_t)b);
            mix((uint64_t)mulh64(a, b));
            mix(mulhu64((uint64_t)a, (uint64_t)b));
            mix((uint64_t)mulhsu64(a, (uint64_t)b));
            mix((uint64_t)div64(a, b));
            mix((uint64_t)rem64(a, b));
            mix(divu64((uint64_t)a, (uint64_t)b));
            mix(remu64((uint64_t)a, (uint64_t)b));
        }
        rt_puts("row a=");
        rt_put_hex((uint64_t)V[i], 16);
        rt_puts(" h=");
        rt_put_hex(h32, 8);
        rt_putc('\n');
        uint32_t row = h32;
        h32 = saved;
        mix(row);
    }
    /* identities that must hold bit-exactly: a == (a/b)*b + a%b for b != 0 */
    int bad = 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 4000; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t a = (int64_t)x;
        int64_t b = (int64_t)(x >> (k % 61)) - (int64_t)(k & 3);
        if (b == 0) continue;
        if (a == INT64_MIN && b == -1) continue;
        int64_t q = a / b, r = a % b;
        if (q * b + r != a) bad++;
        uint64_t uq = (uint64_t)a / (uint64_t)b, ur = (uint64_t)a % (uint64_t)b;
        if (uq * (uint64_t)b + ur != (uint64_t)a) bad++;
        mix((uint64_t)q);
        mix(ur);
        mix((uint64_t)mulh64(a, b));
    }
    rt_kv_dec("identity-failures", bad);
    rt_kv_hex("hash", h32, 8);
    return bad;
}
