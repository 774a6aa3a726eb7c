/*
 * fxp.c - the 16.16 fixed-point helpers that are single instructions on the DPA, as C routines
 * (firmware/ABI.md section 7 gives the semantics and the reason).
 */
#include "doca_pcc_dev_utils.h"

uint32_t doca_pcc_dev_fxp_recip(uint32_t a)
{
    if (a <= 1) {
        return 0xFFFFFFFFu;
    }
    return (uint32_t)((1ull << 32) / a);
}

int32_t doca_pcc_dev_fxp_log2(uint32_t a)
{
    if (a == 0) {
        return INT32_MIN;
    }
    int32_t msb = 31 - __builtin_clz(a); /* log2(a) integer part; value = a / 2^16 */
    int32_t result = (msb - 16) * 65536;
    /* mantissa m in [1, 2) as 1.31 fixed point */
    uint64_t m = msb >= 31 ? (uint64_t)a : (uint64_t)a << (31 - msb);
    for (int bit = 15; bit >= 0; bit--) {
        m = (m * m) >> 31;
        if (m >= (2ull << 31)) {
            m >>= 1;
            result += 1 << bit;
        }
    }
    return result;
}

uint32_t doca_pcc_dev_fxp_power2(int32_t a)
{
    int32_t ip = a >> 16;            /* floor */
    uint32_t frac = (uint32_t)a & 0xFFFFu;
    if (ip >= 16) {
        return 0xFFFFFFFFu;
    }
    /* 2^frac in 2.30: multiply 2^(2^-k) for each set fraction bit (table in 2.30, rounded) */
    static const uint32_t root[16] = {
        1518500250u, 1276901417u, 1170923762u, 1121280436u, 1097253708u, 1085434106u, 1079572136u, 1076653033u,
        1075196443u, 1074468888u, 1074105294u, 1073923544u, 1073832680u, 1073787251u, 1073764537u, 1073753181u,
    };
    uint64_t r = 1ull << 30;
    for (int k = 0; k < 16; k++) {
        if (frac & (0x8000u >> k)) {
            r = (r * root[k]) >> 30;
        }
    }
    /* r is 2^frac in 2.30; result 16.16 = r * 2^ip >> 14 */
    int sh = 14 - ip;
    if (sh >= 64) {
        return 0;
    }
    uint64_t v = sh >= 0 ? r >> sh : r << -sh;
    return v > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)v;
}
