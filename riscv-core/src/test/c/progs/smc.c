/*
 * Self-modifying code and fence.i (Zifencei, unprivileged spec 20191213
 * chapter 3): the program writes instructions into a writable and executable
 * segment (rt/link-smc.ld), executes fence.i, calls them, rewrites them and
 * calls again. A core that decodes each instruction once must drop its decoded
 * copy when the word is stored to (and by fence.i at the latest). Covers a
 * 32-bit addi whose immediate changes, replacing a whole instruction with
 * another (add -> sub -> xor), turning a 32-bit instruction into two 16-bit
 * ones on C targets, and code that rewrites the next instruction of its own
 * caller's buffer in a loop, and on C targets a 32-bit instruction that
 * straddles a 4 KiB page boundary, rewritten one half (one page) at a time.
 * fence.i is written with .insn so that -march
 * stays a plain multilib name. Exit status: low byte of the checksum.
 */
#include "rt.h"

#define FENCE_I() __asm__ volatile(".insn i 0x0f, 1, x0, x0, 0" ::: "memory")

static uint32_t code[64] __attribute__((section(".smc"), aligned(8)));
#ifdef __riscv_compressed
/* two pages: an instruction at offset 4094 of the first straddles the boundary */
static uint8_t pages[8192] __attribute__((section(".smc"), aligned(4096)));
#endif

typedef long (*fn_t)(long, long);

static uint32_t enc_i(uint32_t opcode, uint32_t funct3, uint32_t rd, uint32_t rs1, int32_t imm)
{
    return ((uint32_t)imm << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | opcode;
}

static uint32_t enc_r(uint32_t funct7, uint32_t funct3, uint32_t rd, uint32_t rs1, uint32_t rs2)
{
    return (funct7 << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | 0x33;
}

#define A0 10
#define A1 11
#define RET 0x00008067u /* jalr x0, 0(ra) */

static fn_t at(int word)
{
    return (fn_t)(uintptr_t)&code[word];
}

static uint32_t sum = 0;

static void show(const char *what, long v)
{
    rt_puts(what);
    rt_puts(" = ");
    rt_put_dec(v);
    rt_putc('\n');
    sum = sum * 31u + (uint32_t)v;
}

int main(void)
{
    /* 1: addi a0, a0, imm; ret - the immediate changes on every call */
    for (int32_t imm = -3; imm <= 3; imm++) {
        code[0] = enc_i(0x13, 0, A0, A0, imm * 100);
        code[1] = RET;
        FENCE_I();
        show("addi a0,a0,imm*100 (a0=1000)", at(0)(1000, 0));
    }
    /* 2: replace the whole instruction: add, sub, xor, mul, divu */
    static const uint32_t f7[] = {0x00, 0x20, 0x00, 0x01, 0x01};
    static const uint32_t f3[] = {0, 0, 4, 0, 5};
    static const char *const names[] = {"add", "sub", "xor", "mul", "divu"};
    for (int k = 0; k < 5; k++) {
        code[8] = enc_r(f7[k], f3[k], A0, A0, A1);
        code[9] = RET;
        FENCE_I();
        show(names[k], at(8)(-77, 5));
    }
#ifdef __riscv_compressed
    /* 3: a 32-bit addi becomes c.addi a0, 7 followed by c.addi a0, -1 (two 16-bit halves) */
    code[16] = enc_i(0x13, 0, A0, A0, 500);
    code[17] = RET;
    FENCE_I();
    show("addi 500", at(16)(1, 0));
    uint16_t *half = (uint16_t *)&code[16];
    half[0] = (uint16_t)(0x0001 | (A0 << 7) | (7 << 2));                       /* c.addi a0, 7 */
    half[1] = (uint16_t)(0x0001 | (A0 << 7) | (1u << 12) | ((0x3fu & 0x1f) << 2)); /* c.addi a0, -1 */
    FENCE_I();
    show("c.addi 7; c.addi -1", at(16)(1, 0));
#endif
#ifdef __riscv_compressed
    /* 3b: a 32-bit addi at page offset 4094 (IALIGN = 16), then each half rewritten alone */
    uint8_t *start = &pages[4096 - 2];
    uint32_t w = enc_i(0x13, 0, A0, A0, 100);
    for (int i = 0; i < 4; i++) start[i] = (uint8_t)(w >> (8 * i));
    for (int i = 0; i < 4; i++) start[4 + i] = (uint8_t)(RET >> (8 * i));
    FENCE_I();
    fn_t straddle = (fn_t)(uintptr_t)start;
    show("straddling addi 100 (a0=4)", straddle(4, 0));
    w = enc_i(0x13, 0, A0, A0, -700);           /* immediate bits live in the upper half only */
    start[2] = (uint8_t)(w >> 16);
    start[3] = (uint8_t)(w >> 24);
    FENCE_I();
    show("upper half (second page) -> addi -700", straddle(4, 0));
    w = enc_i(0x13, 4, A0, A0, -700);           /* funct3 4: xori, in the lower half only */
    start[0] = (uint8_t)w;
    start[1] = (uint8_t)(w >> 8);
    FENCE_I();
    show("lower half (first page) -> xori -700 (differs from addi: 4 ^ -700 = -704)", straddle(4, 0));
#endif
    /* 4: a loop whose body is rewritten between iterations, 40 times */
    long acc = 0;
    for (int i = 0; i < 40; i++) {
        code[24] = enc_i(0x13, 0, A0, A0, (i * 37) % 2048 - 1024);   /* addi a0, a0, imm */
        code[25] = enc_i(0x13, 1, A0, A0, i % 32);                   /* slli a0, a0, shamt */
        code[26] = RET;
        FENCE_I();
        acc ^= at(24)(i, 0);
    }
    show("rewritten loop acc", acc);
    rt_kv_hex("checksum", sum, 8);
    return (int)(sum & 0xff);
}
