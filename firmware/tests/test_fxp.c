/* test_fxp.c - the fixed-point helpers (runtime/fxp.c) on hand-checked inputs. */
#include "nicsim_pcc.h"

int nicsim_main(void)
{
    static const uint32_t recip_in[] = {65536, 131072, 32768, 196608, 1, 0};
    static const uint32_t log2_in[] = {65536, 131072, 32768, 98304, 1u << 31, 1};
    static const int32_t pow2_in[] = {0, 65536, -65536, 32768, 15 << 16, 16 << 16, -(17 << 16)};
    for (unsigned i = 0; i < sizeof recip_in / sizeof recip_in[0]; i++) {
        doca_pcc_dev_printf("recip %u = %u\n", recip_in[i], doca_pcc_dev_fxp_recip(recip_in[i]));
    }
    for (unsigned i = 0; i < sizeof log2_in / sizeof log2_in[0]; i++) {
        doca_pcc_dev_printf("log2 %u = %d\n", log2_in[i], doca_pcc_dev_fxp_log2(log2_in[i]));
    }
    for (unsigned i = 0; i < sizeof pow2_in / sizeof pow2_in[0]; i++) {
        doca_pcc_dev_printf("power2 %d = %u\n", pow2_in[i], doca_pcc_dev_fxp_power2(pow2_in[i]));
    }
    doca_pcc_dev_printf("fxp_mult 98304 98304 = %u, mult = %lu, fls 0 1 255 = %u %u %u\n",
                        doca_pcc_dev_fxp_mult(98304, 98304), (unsigned long)doca_pcc_dev_mult(0xFFFFFFFFu, 2),
                        doca_pcc_dev_fls(0), doca_pcc_dev_fls(1), doca_pcc_dev_fls(255));
    return 0;
}
