/*
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, the Ethernet FCS and
 * the RoCEv2 ICRC polynomial) and CRC-32C (Castagnoli, 0x82F63B78), each
 * bitwise and table-driven, over the standard check string "123456789"
 * (expected 0xCBF43926 and 0xE3069283) and over 64 KiB of xorshift data.
 * Exit status 42 when the check values and both methods agree, else 1.
 */
#include "rt.h"

/* -DDATA_BYTES=N makes a longer run (the timing in docs/performance.md uses 8 MiB) */
#ifndef DATA_BYTES
#define DATA_BYTES 65536
#endif

static uint8_t data[DATA_BYTES];
static uint32_t table_ieee[256], table_c[256];

static void make_table(uint32_t *t, uint32_t poly)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) {
            c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
        }
        t[i] = c;
    }
}

static uint32_t crc_bitwise(uint32_t poly, const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++) {
            c = (c >> 1) ^ (poly & (0u - (c & 1)));
        }
    }
    return ~c;
}

static uint32_t crc_table(const uint32_t *t, const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) {
        c = t[(c ^ *p++) & 0xff] ^ (c >> 8);
    }
    return ~c;
}

int main(void)
{
    static const uint8_t check[] = "123456789";
    int ok = 1;
    make_table(table_ieee, 0xedb88320u);
    make_table(table_c, 0x82f63b78u);
    rt_kv_hex("table_ieee[1]", table_ieee[1], 8);
    rt_kv_hex("table_ieee[255]", table_ieee[255], 8);
    rt_kv_hex("table_c[128]", table_c[128], 8);

    uint32_t c1 = crc_bitwise(0xedb88320u, check, 9);
    uint32_t c2 = crc_table(table_ieee, check, 9);
    uint32_t c3 = crc_bitwise(0x82f63b78u, check, 9);
    uint32_t c4 = crc_table(table_c, check, 9);
    rt_kv_hex("crc32(check) bitwise", c1, 8);
    rt_kv_hex("crc32(check) table", c2, 8);
    rt_kv_hex("crc32c(check) bitwise", c3, 8);
    rt_kv_hex("crc32c(check) table", c4, 8);
    ok &= c1 == 0xcbf43926u && c2 == c1 && c3 == 0xe3069283u && c4 == c3;

    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < DATA_BYTES; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for (int k = 0; k < 8; k++) {
            data[i + k] = (uint8_t)(x >> (8 * k));
        }
    }
    /* several lengths and misaligned starts */
    static const size_t lens[] = {0, 1, 3, 4, 7, 64, 1000, 4097, DATA_BYTES - 3};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t off = i % 4;
        uint32_t t1 = crc_table(table_ieee, data + off, lens[i]);
        uint32_t t2 = crc_table(table_c, data + off, lens[i]);
        rt_puts("len=");
        rt_put_udec(lens[i]);
        rt_puts(" off=");
        rt_put_udec(off);
        rt_puts(" crc32=");
        rt_put_hex(t1, 8);
        rt_puts(" crc32c=");
        rt_put_hex(t2, 8);
        rt_putc('\n');
        if (lens[i] <= 4097) {
            ok &= crc_bitwise(0xedb88320u, data + off, lens[i]) == t1;
        }
    }
    /* a full-buffer bitwise pass: the long-running part (about 4 M instructions per 64 KiB) */
    uint32_t full = crc_bitwise(0xedb88320u, data, DATA_BYTES);
    rt_kv_hex("crc32(all) bitwise", full, 8);
    ok &= full == crc_table(table_ieee, data, DATA_BYTES);
    rt_kv_dec("ok", ok);
    return ok ? 42 : 1;
}
