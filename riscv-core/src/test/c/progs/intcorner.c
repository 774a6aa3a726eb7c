/*
 * Integer corner cases of RV32/RV64 I and M (and A where the target has it),
 * executed as explicit instructions through inline assembly so the compiler
 * cannot fold them: division overflow (XLEN_MIN / -1) and division by zero
 * (unprivileged spec 20191213, section 7.2, table 7.1), shift amounts at and
 * above XLEN (only the low log2(XLEN) bits count, section 2.4.2), W-forms on
 * RV64 that sign-extend their 32-bit result (section 5.2), sign and zero
 * extension of loads, signed vs unsigned compares and branches.
 *
 * Every result table is hashed row by row (FNV-1a over the XLEN-bit results)
 * so a mismatch names the instruction and the first operand; the named
 * corner cases are printed in full. Exit status: the low byte of the final
 * hash (deterministic, normally nonzero).
 */
#include "rt.h"

typedef long xlen_t;            /* ilp32: 32 bits, lp64: 64 bits */
typedef unsigned long uxlen_t;

#define XLEN_MIN ((xlen_t)((uxlen_t)1 << (XLEN_BITS - 1)))
#define XLEN_MAX ((xlen_t)(((uxlen_t)1 << (XLEN_BITS - 1)) - 1))
#define HEXW (XLEN_BITS / 4)

#define RR(fn, insn)                                                           \
    static xlen_t fn(xlen_t a, xlen_t b)                                       \
    {                                                                          \
        xlen_t r;                                                              \
        __asm__ volatile(insn " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));       \
        return r;                                                              \
    }

RR(op_add, "add") RR(op_sub, "sub") RR(op_sll, "sll") RR(op_srl, "srl")
RR(op_sra, "sra") RR(op_slt, "slt") RR(op_sltu, "sltu") RR(op_xor, "xor")
RR(op_or, "or") RR(op_and, "and")
RR(op_mul, "mul") RR(op_mulh, "mulh") RR(op_mulhsu, "mulhsu") RR(op_mulhu, "mulhu")
RR(op_div, "div") RR(op_divu, "divu") RR(op_rem, "rem") RR(op_remu, "remu")
#if XLEN_BITS == 64
RR(op_addw, "addw") RR(op_subw, "subw") RR(op_sllw, "sllw") RR(op_srlw, "srlw")
RR(op_sraw, "sraw") RR(op_mulw, "mulw") RR(op_divw, "divw") RR(op_divuw, "divuw")
RR(op_remw, "remw") RR(op_remuw, "remuw")
#endif

struct rr_op {
    const char *name;
    xlen_t (*fn)(xlen_t, xlen_t);
};

static const struct rr_op ops[] = {
    {"add", op_add}, {"sub", op_sub}, {"sll", op_sll}, {"srl", op_srl},
    {"sra", op_sra}, {"slt", op_slt}, {"sltu", op_sltu}, {"xor", op_xor},
    {"or", op_or}, {"and", op_and}, {"mul", op_mul}, {"mulh", op_mulh},
    {"mulhsu", op_mulhsu}, {"mulhu", op_mulhu}, {"div", op_div},
    {"divu", op_divu}, {"rem", op_rem}, {"remu", op_remu},
#if XLEN_BITS == 64
    {"addw", op_addw}, {"subw", op_subw}, {"sllw", op_sllw}, {"srlw", op_srlw},
    {"sraw", op_sraw}, {"mulw", op_mulw}, {"divw", op_divw},
    {"divuw", op_divuw}, {"remw", op_remw}, {"remuw", op_remuw},
#endif
};

static xlen_t vals[24];
static int nvals;

static void add_val(xlen_t v) { vals[nvals++] = v; }

static void init_vals(void)
{
    add_val(0);
    add_val(1);
    add_val(-1);
    add_val(2);
    add_val(-2);
    add_val(XLEN_MIN);
    add_val(XLEN_MAX);
    add_val((xlen_t)(int32_t)0x80000000);   /* INT32_MIN, sign-extended */
    add_val((xlen_t)0x7fffffff);
    add_val((xlen_t)(uxlen_t)0xffffffffu);  /* -1 on RV32, 2^32-1 on RV64 */
    add_val((xlen_t)(uxlen_t)0x80000000u);
    add_val(31);
    add_val(32);
    add_val(33);
    add_val(63);
    add_val(64);
    add_val(65);
    add_val(-31);
    add_val(XLEN_BITS - 1 + 0x100);         /* shift amount with high garbage bits */
    add_val((xlen_t)(uxlen_t)0x5555555555555555ull);
    add_val((xlen_t)(uxlen_t)0xaaaaaaaaaaaaaaaaull);
    add_val((xlen_t)(uxlen_t)0x00000001ffffffffull);
    add_val((xlen_t)(uxlen_t)0xfedcba9876543210ull);
    add_val(7);
}

static uint32_t fnv(uint32_t h, uxlen_t v)
{
    for (int i = 0; i < XLEN_BITS / 8; i++) {
        h ^= (uint32_t)(v & 0xff);
        h *= 16777619u;
        v >>= 8;
    }
    return h;
}

static uint32_t total = 2166136261u;

static void show(const char *what, xlen_t v)
{
    rt_puts(what);
    rt_puts(" = 0x");
    rt_put_hex((uxlen_t)v, HEXW);
    rt_puts(" = ");
    rt_put_dec(v);
    rt_putc('\n');
    total = fnv(total, (uxlen_t)v);
}

static void tables(void)
{
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        for (int i = 0; i < nvals; i++) {
            uint32_t h = 2166136261u;
            for (int j = 0; j < nvals; j++) {
                h = fnv(h, (uxlen_t)ops[o].fn(vals[i], vals[j]));
            }
            rt_puts(ops[o].name);
            rt_puts(" a=");
            rt_put_hex((uxlen_t)vals[i], HEXW);
            rt_puts(" h=");
            rt_put_hex(h, 8);
            rt_putc('\n');
            total = fnv(total, h);
        }
    }
}

static void named_cases(void)
{
    xlen_t mn = OPAQUE(XLEN_MIN), m1 = OPAQUE((xlen_t)-1), z = OPAQUE((xlen_t)0);
    xlen_t seven = OPAQUE((xlen_t)7), mseven = OPAQUE((xlen_t)-7);
    show("div(MIN,-1)", op_div(mn, m1));
    show("rem(MIN,-1)", op_rem(mn, m1));
    show("div(7,0)", op_div(seven, z));
    show("div(-7,0)", op_div(mseven, z));
    show("divu(7,0)", op_divu(seven, z));
    show("rem(-7,0)", op_rem(mseven, z));
    show("remu(-7,0)", op_remu(mseven, z));
    show("div(-7,2)", op_div(mseven, OPAQUE((xlen_t)2)));
    show("rem(-7,2)", op_rem(mseven, OPAQUE((xlen_t)2)));
    show("rem(7,-2)", op_rem(seven, OPAQUE((xlen_t)-2)));
    show("mulh(MIN,MIN)", op_mulh(mn, mn));
    show("mulhsu(-1,-1)", op_mulhsu(m1, m1));
    show("mulhu(-1,-1)", op_mulhu(m1, m1));
    show("sll(1,XLEN)", op_sll(OPAQUE((xlen_t)1), OPAQUE((xlen_t)XLEN_BITS)));
    show("sll(1,XLEN+3)", op_sll(OPAQUE((xlen_t)1), OPAQUE((xlen_t)XLEN_BITS + 3)));
    show("srl(MIN,-1)", op_srl(mn, m1));
    show("sra(MIN,-1)", op_sra(mn, m1));
    show("sra(MIN,XLEN-1+XLEN)", op_sra(mn, OPAQUE((xlen_t)(2 * XLEN_BITS - 1))));
#if XLEN_BITS == 64
    xlen_t imin32 = OPAQUE((xlen_t)(int32_t)0x80000000);
    show("divw(INT32_MIN,-1)", op_divw(imin32, m1));
    show("remw(INT32_MIN,-1)", op_remw(imin32, m1));
    show("divw(7,0)", op_divw(seven, z));
    show("divuw(7,0)", op_divuw(seven, z));
    show("remuw(-7,0)", op_remuw(mseven, z));
    show("remw(-7,0)", op_remw(mseven, z));
    show("divuw(0x1_0000_0007,0x1_0000_0000)",
         op_divuw(OPAQUE((xlen_t)0x100000007ll), OPAQUE((xlen_t)0x100000000ll)));
    show("sllw(1,31)", op_sllw(OPAQUE((xlen_t)1), OPAQUE((xlen_t)31)));
    show("sllw(1,32)", op_sllw(OPAQUE((xlen_t)1), OPAQUE((xlen_t)32)));
    show("srlw(-1,0)", op_srlw(m1, z));
    show("srlw(-1,33)", op_srlw(m1, OPAQUE((xlen_t)33)));
    show("sraw(0x80000000,63)", op_sraw(OPAQUE((xlen_t)0x80000000ll), OPAQUE((xlen_t)63)));
    show("addw(0x7fffffff,1)", op_addw(OPAQUE((xlen_t)0x7fffffff), OPAQUE((xlen_t)1)));
    show("mulw(0x10000,0x10000)", op_mulw(OPAQUE((xlen_t)0x10000), OPAQUE((xlen_t)0x10000)));
    {
        xlen_t r;
        __asm__ volatile("addiw %0, %1, 1" : "=r"(r) : "r"(OPAQUE((xlen_t)0x7fffffff)));
        show("addiw(0x7fffffff,1)", r);
        __asm__ volatile("addiw %0, %1, 0" : "=r"(r) : "r"(OPAQUE((xlen_t)0x00000001fffffffell)));
        show("sext.w(0x1_ffff_fffe)", r);
        __asm__ volatile("slliw %0, %1, 31" : "=r"(r) : "r"(OPAQUE((xlen_t)3)));
        show("slliw(3,31)", r);
        __asm__ volatile("srliw %0, %1, 4" : "=r"(r) : "r"(m1));
        show("srliw(-1,4)", r);
        __asm__ volatile("sraiw %0, %1, 4" : "=r"(r) : "r"(OPAQUE((xlen_t)0x80000000ll)));
        show("sraiw(0x80000000,4)", r);
        __asm__ volatile("srai %0, %1, 63" : "=r"(r) : "r"(mn));
        show("srai(MIN,63)", r);
        __asm__ volatile("srli %0, %1, 63" : "=r"(r) : "r"(mn));
        show("srli(MIN,63)", r);
    }
#endif
    {
        xlen_t r;
        __asm__ volatile("lui %0, 0x80000" : "=r"(r));
        show("lui(0x80000)", r);
        __asm__ volatile("lui %0, 0xfffff" : "=r"(r));
        show("lui(0xfffff)", r);
        __asm__ volatile("addi %0, %1, -2048" : "=r"(r) : "r"(z));
        show("addi(0,-2048)", r);
        __asm__ volatile("addi %0, %1, 2047" : "=r"(r) : "r"(XLEN_MAX - 2046));
        show("addi(MAX-2046,2047)", r);
        __asm__ volatile("slti %0, %1, -1" : "=r"(r) : "r"(mn));
        show("slti(MIN,-1)", r);
        __asm__ volatile("sltiu %0, %1, -1" : "=r"(r) : "r"(OPAQUE((xlen_t)-2)));
        show("sltiu(-2,-1)", r);
        __asm__ volatile("sltiu %0, %1, -1" : "=r"(r) : "r"(m1));
        show("sltiu(-1,-1)", r);
        __asm__ volatile("sltiu %0, %1, 1" : "=r"(r) : "r"(z));
        show("seqz(0)", r);
        __asm__ volatile("xori %0, %1, -1" : "=r"(r) : "r"(OPAQUE((xlen_t)0x1234)));
        show("not(0x1234)", r);
        __asm__ volatile("andi %0, %1, -16" : "=r"(r) : "r"(m1));
        show("andi(-1,-16)", r);
        __asm__ volatile("srai %0, %1, %2" : "=r"(r) : "r"(mn), "i"(XLEN_BITS - 1));
        show("srai(MIN,XLEN-1)", r);
    }
}

static void loads(void)
{
    static uint8_t buf[16] __attribute__((aligned(8))) = {
        0x80, 0xff, 0x7f, 0x01, 0x00, 0x80, 0xff, 0xff,
        0xfe, 0xff, 0xff, 0x7f, 0x00, 0x00, 0x00, 0x80};
    uint8_t *p = OPAQUE(&buf[0]);
    xlen_t r;
    for (int i = 0; i < 16; i += 1) {
        __asm__ volatile("lb %0, 0(%1)" : "=r"(r) : "r"(p + i) : "memory");
        total = fnv(total, (uxlen_t)r);
        __asm__ volatile("lbu %0, 0(%1)" : "=r"(r) : "r"(p + i) : "memory");
        total = fnv(total, (uxlen_t)r);
    }
    for (int i = 0; i < 16; i += 2) {
        __asm__ volatile("lh %0, 0(%1)" : "=r"(r) : "r"(p + i) : "memory");
        show(i == 0 ? "lh[0]" : "lh", r);
        __asm__ volatile("lhu %0, 0(%1)" : "=r"(r) : "r"(p + i) : "memory");
        show("lhu", r);
    }
    for (int i = 0; i < 16; i += 4) {
        __asm__ volatile("lw %0, 0(%1)" : "=r"(r) : "r"(p + i) : "memory");
        show("lw", r);
#if XLEN_BITS == 64
        __asm__ volatile("lwu %0, 0(%1)" : "=r"(r) : "r"(p + i) : "memory");
        show("lwu", r);
#endif
    }
#if XLEN_BITS == 64
    __asm__ volatile("ld %0, 8(%1)" : "=r"(r) : "r"(p) : "memory");
    show("ld[8]", r);
#endif
    /* stores of narrow widths only touch their bytes */
    __asm__ volatile("sb %1, 1(%0)\n\tsh %1, 2(%0)\n\tsw %1, 4(%0)"
                     : : "r"(p), "r"(OPAQUE((xlen_t)(uxlen_t)0x1122334455667788ull))
                     : "memory");
    for (int i = 0; i < 8; i++) {
        total = fnv(total, p[i]);
        rt_put_hex(p[i], 2);
    }
    rt_putc('\n');
    /* C-level sign extension through casts */
    volatile int8_t s8 = -128;
    volatile int16_t s16 = -32768;
    volatile int32_t s32 = -2147483647 - 1;
    volatile uint8_t u8 = 200;
    show("(xlen)(int8)-128", (xlen_t)s8);
    show("(xlen)(int16)-32768", (xlen_t)s16);
    show("(xlen)(int32)MIN", (xlen_t)s32);
    show("(xlen)(uint8)200", (xlen_t)u8);
    show("(int8)(uint8)200", (xlen_t)(int8_t)u8);
    show("(int64)(int32)MIN", (xlen_t)(int64_t)s32 >> 1);
}

static void compares(void)
{
    /* the compiler turns these into blt/bge/bltu/bgeu and slt/sltu */
    int count = 0;
    for (int i = 0; i < nvals; i++) {
        for (int j = 0; j < nvals; j++) {
            xlen_t a = OPAQUE(vals[i]), b = OPAQUE(vals[j]);
            unsigned bits = 0;
            if (a < b) bits |= 1;
            if ((uxlen_t)a < (uxlen_t)b) bits |= 2;
            if (a >= b) bits |= 4;
            if ((uxlen_t)a >= (uxlen_t)b) bits |= 8;
            if (a == b) bits |= 16;
            if (a != b) bits |= 32;
            total = fnv(total, bits);
            count += (int)bits;
        }
    }
    show("compare-bits-sum", count);
    uint32_t u = OPAQUE(0xffffffffu);
    int32_t s = OPAQUE(-1);
    show("u32max<1u", u < 1u);
    show("s32(-1)<1", s < 1);
    show("(uxlen)-1>0", (uxlen_t)OPAQUE((xlen_t)-1) > 0);
}

#ifdef __riscv_atomic
static void atomics(void)
{
    static int32_t w[4] __attribute__((aligned(8))) = {5, -5, 0x7fffffff, (int32_t)0x80000000};
    int32_t old;
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(&w[2]), "r"(1) : "memory");
    show("amoadd.w old", old);
    show("amoadd.w new", w[2]);
    __asm__ volatile("amomin.w %0, %2, (%1)" : "=r"(old) : "r"(&w[0]), "r"(-3) : "memory");
    show("amomin.w", w[0]);
    __asm__ volatile("amominu.w %0, %2, (%1)" : "=r"(old) : "r"(&w[1]), "r"(7) : "memory");
    show("amominu.w", w[1]);
    __asm__ volatile("amomaxu.w %0, %2, (%1)" : "=r"(old) : "r"(&w[3]), "r"(-1) : "memory");
    show("amomaxu.w", w[3]);
    __asm__ volatile("amomax.w %0, %2, (%1)" : "=r"(old) : "r"(&w[3]), "r"(0) : "memory");
    show("amomax.w old", old);
    show("amomax.w", w[3]);
    __asm__ volatile("amoswap.w %0, %2, (%1)" : "=r"(old) : "r"(&w[0]), "r"(0x1234) : "memory");
    show("amoswap.w old", old);
    __asm__ volatile("amoxor.w %0, %2, (%1)" : "=r"(old) : "r"(&w[0]), "r"(-1) : "memory");
    __asm__ volatile("amoor.w %0, %2, (%1)" : "=r"(old) : "r"(&w[1]), "r"(0x100) : "memory");
    __asm__ volatile("amoand.w %0, %2, (%1)" : "=r"(old) : "r"(&w[2]), "r"(0xff0) : "memory");
    for (int i = 0; i < 4; i++) {
        show("w", w[i]);
    }
    /* lr/sc increment loop: the sc succeeds (writes 0) on the first try here */
    int32_t tmp, fail;
    __asm__ volatile("1: lr.w %0, (%2)\n\t"
                     "addi %0, %0, 10\n\t"
                     "sc.w %1, %0, (%2)\n\t"
                     "bnez %1, 1b"
                     : "=&r"(tmp), "=&r"(fail) : "r"(&w[0]) : "memory");
    show("lr/sc result", w[0]);
    show("sc.w rd", fail);
    /*
     * Reservation rules (section 8.2): an SC to another address than the LR's fails, and any
     * SC, failed or not, invalidates the reservation, so a following SC to the LR's address
     * must fail too ("sc after failed sc" = 1) and must leave memory unchanged.
     */
    int32_t other_fail, after_fail;
    __asm__ volatile("lr.w %0, (%3)\n\t"
                     "sc.w %1, %5, (%4)\n\t"
                     "sc.w %2, %5, (%3)"
                     : "=&r"(tmp), "=&r"(other_fail), "=&r"(after_fail)
                     : "r"(&w[0]), "r"(&w[1]), "r"(0x5a5a)
                     : "memory");
    show("sc to other address", other_fail);
    show("sc after failed sc", after_fail);
    show("w[0] after", w[0]);
    /* after a successful SC the reservation is gone as well */
    __asm__ volatile("lr.w %0, (%3)\n\t"
                     "sc.w %1, %4, (%3)\n\t"
                     "sc.w %2, %5, (%3)"
                     : "=&r"(tmp), "=&r"(other_fail), "=&r"(after_fail)
                     : "r"(&w[0]), "r"(tmp), "r"(0x6b6b)
                     : "memory");
    show("sc after lr", other_fail);
    show("sc after successful sc", after_fail);
    show("w[0] after", w[0]);
#if XLEN_BITS == 64
    static int64_t d[2] __attribute__((aligned(8))) = {-1, 0x7fffffffffffffffll};
    int64_t o;
    __asm__ volatile("amoadd.d %0, %2, (%1)" : "=r"(o) : "r"(&d[1]), "r"(1L) : "memory");
    show("amoadd.d", d[1]);
    __asm__ volatile("amominu.d %0, %2, (%1)" : "=r"(o) : "r"(&d[0]), "r"(5L) : "memory");
    show("amominu.d", d[0]);
    __asm__ volatile("amomin.d %0, %2, (%1)" : "=r"(o) : "r"(&d[1]), "r"(0L) : "memory");
    show("amomin.d", d[1]);
    show("amomin.d old", o);
    int64_t t64;
    __asm__ volatile("1: lr.d %0, (%2)\n\t"
                     "addi %0, %0, -1\n\t"
                     "sc.d %1, %0, (%2)\n\t"
                     "bnez %1, 1b"
                     : "=&r"(t64), "=&r"(fail) : "r"(&d[0]) : "memory");
    show("lr.d/sc.d", d[0]);
    /* amo*.w on RV64 sign-extends the loaded word */
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(o) : "r"(&w[3]), "r"(0L) : "memory");
    show("amoadd.w sext", o);
#endif
}
#endif

int main(void)
{
    init_vals();
    rt_puts("intcorner xlen=");
    rt_put_dec(XLEN_BITS);
    rt_putc('\n');
    named_cases();
    tables();
    loads();
    compares();
#ifdef __riscv_atomic
    atomics();
#endif
    rt_kv_hex("total", total, 8);
    return (int)(total & 0xff);
}
