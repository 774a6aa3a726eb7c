/*
 * port_util.h - helpers shared by the C ports of nicsim's Java algorithms: the integer
 * conversions of microcode's CcMath and pcc-api's FixedPoint, with the same 64-bit
 * intermediates and rounding, and PccResult's rate clamp. Java int arithmetic wraps at 32 bits:
 * the ports do such sums in uint32_t and convert back.
 */
#ifndef NICSIM_PORT_UTIL_H
#define NICSIM_PORT_UTIL_H

#include "nicsim_pcc.h"

#define CC_MAX_WINDOW_PACKETS_FIXED 0x7FFF0000
#define PARAM_RW 1u

/** One parameter declaration: "name: description", raw default/min/max, kind, unit. */
struct port_param {
    const char *desc;
    uint32_t default_value;
    uint32_t min_value;
    uint32_t max_value;
    uint32_t kind;
    const char *unit;
};

static inline int64_t cc_max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t cc_min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int32_t cc_max32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t cc_min32(int32_t a, int32_t b) { return a < b ? a : b; }

/** Java PccResult.rate: clamp to [1, 1 << 20]. */
static inline void cc_set_rate(doca_pcc_dev_results_t *r, int64_t rate)
{
    r->rate = (uint32_t)cc_max64(1, cc_min64(NICSIM_RATE_ONE, rate));
}

/** CcMath.lineBitsPerRtt */
static inline int64_t cc_line_bits_per_rtt(uint64_t line_bps, int32_t rtt_ns)
{
    return ((int64_t)line_bps / 1000) * (int64_t)cc_max32(0, rtt_ns) / 1000000;
}

/** CcMath.rateForWindow */
static inline int32_t cc_rate_for_window(int32_t window_fixed, int32_t mtu, int32_t rtt_ns, uint64_t line_bps)
{
    int64_t line_bits = cc_line_bits_per_rtt(line_bps, rtt_ns);
    if (line_bits <= 0) {
        return NICSIM_RATE_ONE;
    }
    int64_t window_bits_fixed20 = ((int64_t)window_fixed * mtu * 8) << 4;
    int64_t rate = window_bits_fixed20 / line_bits;
    return (int32_t)cc_max64(1, cc_min64(NICSIM_RATE_ONE, rate));
}

/** CcMath.lineWindowFixed */
static inline int32_t cc_line_window_fixed(int32_t mtu, int32_t rtt_ns, uint64_t line_bps)
{
    int64_t w = (cc_line_bits_per_rtt(line_bps, rtt_ns) << 16) / ((int64_t)mtu * 8);
    return (int32_t)cc_min64(CC_MAX_WINDOW_PACKETS_FIXED, w);
}

/** CcMath.windowBytes */
static inline int64_t cc_window_bytes(int32_t window_fixed, int32_t mtu)
{
    return (int64_t)((uint64_t)((int64_t)window_fixed * mtu) >> 16);
}

/** CcMath.packetsFixed */
static inline int32_t cc_packets_fixed(int64_t bytes, int32_t mtu)
{
    return (int32_t)cc_min64(CC_MAX_WINDOW_PACKETS_FIXED, (bytes << 16) / mtu);
}

/** CcMath.ewmaNs */
static inline int32_t cc_ewma_ns(int32_t srtt, int32_t sample, int32_t gain)
{
    int32_t diff = (int32_t)((uint32_t)sample - (uint32_t)srtt);
    return (int32_t)((uint32_t)srtt + (uint32_t)(int32_t)(((int64_t)diff * gain) >> 16));
}

/** FixedPoint.mul */
static inline int32_t cc_fxp_mul(int32_t a, int32_t b)
{
    return (int32_t)(((int64_t)a * b) >> 16);
}

/** Declares one algorithm with its parameters and counters and puts it in slot 0 of every port. */
static inline void port_declare(uint32_t algo_id, const char *desc, const struct port_param *params,
                                uint32_t param_num, const char *const *counters, uint32_t counter_num)
{
    struct doca_pcc_dev_algo_meta_data meta = {
        .algo_id = algo_id,
        .algo_major_version = 1,
        .algo_minor_version = 0,
        .algo_desc_size = 0xFFFF,
        .algo_desc_addr = (uint64_t)(uintptr_t)desc,
    };
    doca_pcc_dev_algo_init_metadata(0, &meta, param_num, counter_num);
    for (uint32_t i = 0; i < param_num; i++) {
        doca_pcc_dev_algo_init_param(0, i, params[i].default_value, params[i].max_value, params[i].min_value,
                                     PARAM_RW, 0xFFFF, (uint64_t)(uintptr_t)params[i].desc);
        nicsim_pcc_algo_param_info(0, i, params[i].kind, params[i].unit);
    }
    for (uint32_t i = 0; i < counter_num; i++) {
        doca_pcc_dev_algo_init_counter(0, i, 0xFFFFFFFFu, 0, 0xFFFF, (uint64_t)(uintptr_t)counters[i]);
    }
    for (uint32_t port = 0; port < DOCA_PCC_DEV_MAX_NUM_PORTS; port++) {
        doca_pcc_dev_init_algo_slot(port, 0, 0, 1);
    }
}

/** Adds one to counter id (counters may be NULL). */
static inline void port_count(uint32_t *counters, uint32_t id)
{
    if (counters != 0) {
        counters[id]++;
    }
}

#endif
