/*
 * doca_np_ifa2.c - test NP program written from Addendum B.4/B.5 of the DOCA PCC fact sheet (what NVIDIA's
 * switch-telemetry NP does with an IFA2 probe), not from NVIDIA's source: byte-level parsing with
 * explicit shifts instead of bit-fields, so what it writes is what B.4's response table says.
 *
 * Mailbox (B.5): a request of exactly 4 bytes stores H0 = its byte 0 and marks the program ready; any
 * other size returns FAIL and stores nothing.
 * Probe (B.4): with L = get_l4_header(in) (the UDP header after the IFA header), the metadata header is at
 * L + 8 and its Hop Limit at L + 10; n = (H0 - Hop Limit) mod 256. Before the mailbox, or with n = 0, the
 * handler writes nothing. Otherwise it reads the newest record at L + 12: byte 3 (ID low 6 bits, port
 * type), the egress port (bytes 26-27), TX ns (18-21), TX bytes (28-31), the queue (B.3: "Mellanox format"
 * when bytes 8-9 are 0x8000, else "Broadcom format"). A table of 32768 entries keyed by
 * (byte3 >> 2) | (egress port & 0x1F) << 10 keeps (B0,T0), (B1,T1), used, last access (timer_lo, us).
 * Response: bytes 0-1 qlen = (Q >> 8) mod 2^16 big-endian; byte 2 bits 2-0 = (n - 1) mod 8; byte 3 bits
 * 1-0 port type, bit 2 valid; bytes 4-7 and 8-11 the byte and ns deltas, big-endian. A record more than
 * 2 s older than the stored one writes only the index (valid clear). Always returns OK.
 * Only DOCA names; no nicsim header.
 */
#include <doca_pcc_np_dev.h>

#define TABLE_ENTRIES 32768u
#define FRESH_WINDOW_US 5000000u
#define OLDER_THAN_NS 2000000000u

struct entry {
    uint32_t b0;
    uint32_t t0;
    uint32_t b1;
    uint32_t t1;
    uint32_t last_us;
    uint32_t used;
};

static struct entry table[TABLE_ENTRIES];
static uint32_t hop_limit0;
static volatile uint32_t ready;

static uint32_t be16_at(const uint8_t *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32_at(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

doca_pcc_dev_error_t doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
                                                      void *response, uint32_t *response_size)
{
    (void)max_response_size;
    (void)response;
    (void)response_size;
    if (request_size != 4) {
        return DOCA_PCC_DEV_STATUS_FAIL;
    }
    hop_limit0 = ((const uint8_t *)request)[0];
    ready = 1;
    __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W);
    return DOCA_PCC_DEV_STATUS_OK;
}

doca_pcc_dev_error_t doca_pcc_dev_np_user_packet_handler(struct doca_pcc_np_dev_request_packet *in,
                                                         struct doca_pcc_np_dev_response_packet *out)
{
    if (!ready) {
        return DOCA_PCC_DEV_STATUS_OK;
    }
    const uint8_t *l4 = doca_pcc_np_dev_get_l4_header(in);
    const uint32_t n = (hop_limit0 - l4[10]) & 0xFFu;
    if (n == 0) {
        return DOCA_PCC_DEV_STATUS_OK;
    }
    const uint8_t *rec = l4 + 12; /* the newest hop's record */
    const uint32_t key = ((uint32_t)rec[3] >> 2) | (be16_at(rec + 26) & 0x1Fu) << 10;
    const uint32_t bn = be32_at(rec + 28);
    const uint32_t tn = be32_at(rec + 18);
    const uint32_t q = be16_at(rec + 8) == 0x8000u ? be16_at(rec + 10) << 16 | be16_at(rec + 22) : be16_at(rec + 22) << 8;
    uint8_t *d = out->data;
    d[2] = (uint8_t)((d[2] & ~7u) | ((n - 1) & 7u));
    struct entry *e = &table[key];
    const uint32_t now_us = doca_pcc_dev_get_timer_lo();
    uint32_t first = 0;
    if (!e->used) {
        e->b0 = e->t0 = e->b1 = e->t1 = 0;
        e->used = 1;
        first = 1;
    } else if (now_us - e->last_us > FRESH_WINDOW_US) {
        first = 1;
    }
    e->last_us = now_us;
    if (!first && tn - e->t0 > OLDER_THAN_NS) { /* older than the stored sample: only the index */
        d[3] = (uint8_t)(d[3] & ~4u);
        return DOCA_PCC_DEV_STATUS_OK;
    }
    if (bn != e->b0) {
        e->b1 = e->b0;
        e->t1 = e->t0;
    }
    e->b0 = bn;
    e->t0 = tn;
    const uint32_t qlen = (q >> 8) & 0xFFFFu;
    d[0] = (uint8_t)(qlen >> 8);
    d[1] = (uint8_t)qlen;
    d[3] = (uint8_t)((d[3] & ~7u) | (rec[3] & 3u) | (first ? 0u : 4u));
    put_be32(d + 4, bn - e->b1);
    put_be32(d + 8, tn - e->t1);
    return DOCA_PCC_DEV_STATUS_OK;
}
