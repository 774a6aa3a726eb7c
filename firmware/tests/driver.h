/*
 * driver.h - test driver for the firmware ports: interprets a script of calls (embedded with
 * .incbin from tests/scripts/NAME.script), fills the mailbox exactly as the emulator would
 * (firmware/ABI.md section 4), calls the runtime's event/flow-init entry code and prints the
 * results. tests/java/FirmwareReference.java runs the same script through the Java handlers
 * and prints the same lines, so the two can be diffed.
 *
 * Script lines (numbers decimal; '#' starts a comment):
 *   attr line=BPS mtu=BYTES rtt=NS [slot=N] [overload=0|1]
 *   param NAME RAW            set a parameter of port 0 / the slot (raw value)
 *   init now=NS psn=PSN       flow-init call on a zeroed context
 *   TYPE key=value ...        event: TYPE tx|ack|nack|cnp|rtt|timer; keys ts sn first n bytes
 *                             pkts flags (Java flags: 1 ECE, 2 first, 4 BECN) sub rs rr rp
 *   counters                  print every declared counter
 * Output per call: "LINE TYPE -> rate=R window=W timer=T fs=F probe=P ctx=w0,...,w11"
 * ('-' = unchanged).
 */
#ifndef NICSIM_TEST_DRIVER_H
#define NICSIM_TEST_DRIVER_H

#include "nicsim_pcc.h"

#define STR2(x) #x
#define STR(x) STR2(x)
__asm__(".section .rodata\n.globl test_script\ntest_script:\n.incbin \"scripts/" STR(TEST_NAME) ".script\"\n"
        ".byte 0\n.previous\n");
extern const char test_script[];

static doca_pcc_dev_algo_ctxt_t test_ctx;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int tok_eq(const char *a, uint32_t len, const char *b)
{
    uint32_t i = 0;
    for (; i < len && b[i] != '\0'; i++) {
        if (a[i] != b[i]) {
            return 0;
        }
    }
    return i == len && b[i] == '\0';
}

static uint64_t parse_num(const char *s, uint32_t len)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < len; i++) {
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    return v;
}

/* key lookup: returns the value of "key=" in the token list, or def */
struct toks {
    const char *start[24];
    uint32_t len[24];
    uint32_t n;
};

static uint64_t get(const struct toks *t, const char *key, uint64_t def)
{
    for (uint32_t i = 1; i < t->n; i++) {
        uint32_t k = 0;
        while (k < t->len[i] && t->start[i][k] != '=') {
            k++;
        }
        if (k < t->len[i] && tok_eq(t->start[i], k, key)) {
            return parse_num(t->start[i] + k + 1, t->len[i] - k - 1);
        }
    }
    return def;
}

static void put_be32(uint32_t *field, uint32_t v) { *field = __builtin_bswap32(v); }

static void prefill(uint8_t *mb)
{
    doca_pcc_dev_results_t *r = (doca_pcc_dev_results_t *)(mb + NICSIM_MB_RESULTS);
    r->rate = NICSIM_PCC_RATE_UNCHANGED;
    r->rtt_req = 0;
    r->window_bytes = NICSIM_PCC_WINDOW_UNCHANGED;
    r->timer_ns = 0;
    r->fast_start_packets = NICSIM_PCC_FAST_START_UNCHANGED;
    r->reserved = 0;
    for (uint32_t i = 0; i < 80; i++) {
        mb[NICSIM_MB_EVENT + i] = 0;
    }
}

static void print_results(uint32_t line, const char *what, uint32_t what_len, uint8_t *mb)
{
    const doca_pcc_dev_results_t *r = (const doca_pcc_dev_results_t *)(mb + NICSIM_MB_RESULTS);
    char buf[48];
    uint32_t n = what_len < sizeof buf - 1 ? what_len : (uint32_t)sizeof buf - 1;
    for (uint32_t i = 0; i < n; i++) {
        buf[i] = what[i];
    }
    buf[n] = '\0';
    doca_pcc_dev_printf("%u %s ->", line, buf);
    if (r->rate == NICSIM_PCC_RATE_UNCHANGED) {
        doca_pcc_dev_printf(" rate=-");
    } else {
        uint32_t rate = r->rate == 0 ? 1 : (r->rate > NICSIM_RATE_ONE ? NICSIM_RATE_ONE : r->rate);
        doca_pcc_dev_printf(" rate=%u", rate);
    }
    if (r->window_bytes == NICSIM_PCC_WINDOW_UNCHANGED) {
        doca_pcc_dev_printf(" window=-");
    } else {
        doca_pcc_dev_printf(" window=%lu", (unsigned long)r->window_bytes);
    }
    if (r->timer_ns == 0) {
        doca_pcc_dev_printf(" timer=-");
    } else {
        doca_pcc_dev_printf(" timer=%u", r->timer_ns);
    }
    if (r->fast_start_packets == NICSIM_PCC_FAST_START_UNCHANGED) {
        doca_pcc_dev_printf(" fs=-");
    } else {
        doca_pcc_dev_printf(" fs=%u", r->fast_start_packets);
    }
    doca_pcc_dev_printf(" probe=%u ctx=", r->rtt_req);
    for (int i = 0; i < 12; i++) {
        doca_pcc_dev_printf(i == 0 ? "%x" : ",%x", test_ctx.data[i]);
    }
    doca_pcc_dev_printf("\n");
}

static int doca_type(const char *s, uint32_t len, uint32_t *java_type)
{
    static const char *const names[6] = {"tx", "ack", "nack", "cnp", "rtt", "timer"};
    static const int doca[6] = {DOCA_PCC_DEV_EVNT_ROCE_TX, DOCA_PCC_DEV_EVNT_ROCE_ACK, DOCA_PCC_DEV_EVNT_ROCE_NACK,
                                DOCA_PCC_DEV_EVNT_ROCE_CNP, DOCA_PCC_DEV_EVNT_RTT, NICSIM_PCC_EVNT_TIMER};
    for (uint32_t i = 0; i < 6; i++) {
        if (tok_eq(s, len, names[i])) {
            *java_type = i;
            return doca[i];
        }
    }
    return -1;
}

int nicsim_main(void)
{
    uint8_t *mb = nicsim_pcc_mailbox();
    doca_pcc_dev_attr_t *attr = (doca_pcc_dev_attr_t *)(mb + NICSIM_MB_ATTR);
    doca_pcc_dev_event_t *ev = (doca_pcc_dev_event_t *)(mb + NICSIM_MB_EVENT);
    nicsim_rt_init(mb);
    const char *p = test_script;
    uint32_t line = 0;
    while (*p != '\0') {
        line++;
        struct toks t = {.n = 0};
        while (*p != '\0' && *p != '\n') {
            while (is_space(*p)) {
                p++;
            }
            if (*p == '#') {
                while (*p != '\0' && *p != '\n') {
                    p++;
                }
                break;
            }
            if (*p == '\0' || *p == '\n') {
                break;
            }
            const char *s = p;
            while (*p != '\0' && *p != '\n' && !is_space(*p)) {
                p++;
            }
            if (t.n < 24) {
                t.start[t.n] = s;
                t.len[t.n] = (uint32_t)(p - s);
                t.n++;
            }
        }
        if (*p == '\n') {
            p++;
        }
        if (t.n == 0) {
            continue;
        }
        uint32_t slot = attr->algo_slot;
        uint32_t java_type;
        int type;
        if (tok_eq(t.start[0], t.len[0], "attr")) {
            attr->line_rate_bps = get(&t, "line", 100000000000ull);
            attr->mtu_bytes = (uint32_t)get(&t, "mtu", 1000);
            attr->base_rtt_ns = (uint32_t)get(&t, "rtt", 8000);
            attr->algo_slot = (uint32_t)get(&t, "slot", 0);
            attr->overload = (uint32_t)get(&t, "overload", 0);
        } else if (tok_eq(t.start[0], t.len[0], "param") && t.n == 3) {
            uint32_t algo = nicsim_pcc_slots[0][slot].algo_idx;
            int found = 0;
            for (uint32_t i = 0; i < NICSIM_PCC_MAX_PARAMS; i++) {
                const struct nicsim_pcc_param_entry *e = &nicsim_pcc_param_table[algo][i];
                if (e->declared && e->name_len == t.len[1]) {
                    const char *nm = (const char *)(uintptr_t)e->name_addr;
                    uint32_t k = 0;
                    while (k < t.len[1] && nm[k] == t.start[1][k]) {
                        k++;
                    }
                    if (k == t.len[1]) {
                        nicsim_pcc_params[0][slot][i] = (uint32_t)parse_num(t.start[2], t.len[2]);
                        found = 1;
                    }
                }
            }
            if (!found) {
                doca_pcc_dev_printf("%u unknown parameter\n", line);
                return 1;
            }
        } else if (tok_eq(t.start[0], t.len[0], "init")) {
            for (int i = 0; i < 12; i++) {
                test_ctx.data[i] = 0;
            }
            prefill(mb);
            uint32_t now = (uint32_t)get(&t, "now", 0);
            attr->initial_psn = (uint32_t)get(&t, "psn", 0);
            attr->now_ns = now;
            put_be32(&ev->be_timestamp, now);
            *(uint32_t *)(mb + NICSIM_MB_CALL) = NICSIM_CALL_FLOW_INIT;
            nicsim_rt_event(mb, &test_ctx);
            attr->initial_psn = 0;
            print_results(line, t.start[0], t.len[0], mb);
        } else if (tok_eq(t.start[0], t.len[0], "counters")) {
            uint32_t algo = nicsim_pcc_slots[0][slot].algo_idx;
            for (uint32_t i = 0; i < NICSIM_PCC_MAX_COUNTERS; i++) {
                const struct nicsim_pcc_counter_entry *e = &nicsim_pcc_counter_table[algo][i];
                if (!e->declared) {
                    continue;
                }
                uint64_t sum = 0;
                for (uint32_t th = 0; th < NICSIM_PCC_MAX_THREADS; th++) {
                    sum += nicsim_pcc_counters[th][0][slot][i];
                }
                char name[64];
                uint32_t n = e->name_len < 63 ? e->name_len : 63;
                for (uint32_t k = 0; k < n; k++) {
                    name[k] = ((const char *)(uintptr_t)e->name_addr)[k];
                }
                name[n] = '\0';
                doca_pcc_dev_printf("counter %s %lu\n", name, (unsigned long)sum);
            }
        } else if ((type = doca_type(t.start[0], t.len[0], &java_type)) >= 0) {
            prefill(mb);
            uint32_t ts = (uint32_t)get(&t, "ts", 0);
            uint32_t sn = (uint32_t)get(&t, "sn", 0);
            uint32_t bytes = (uint32_t)get(&t, "bytes", 0);
            uint32_t pkts = (uint32_t)get(&t, "pkts", 0);
            ev->ev_type = (uint8_t)type;
            ev->ev_subtype = (uint8_t)get(&t, "sub", 0);
            ev->port_num = 0;
            ev->flags = 0;
            put_be32(&ev->be_flow_tag, 7);
            put_be32(&ev->be_qpn, 7);
            put_be32(&ev->be_sn, sn);
            put_be32(&ev->be_timestamp, ts);
            put_be32(&ev->be_first_timestamp, (uint32_t)get(&t, "first_ts", ts));
            put_be32(&ev->be_first_sn, (uint32_t)get(&t, "first", sn));
            put_be32(&ev->be_num_coalesced, (uint32_t)get(&t, "n", 1));
            uint32_t units = (bytes + 31) / 32;
            ev->be_sent_32bytes = __builtin_bswap16((uint16_t)(units > 0xFFFF ? 0xFFFF : units));
            ev->be_sent_pkts = __builtin_bswap16((uint16_t)(pkts > 0xFFFF ? 0xFFFF : pkts));
            put_be32(&ev->be_tx_bytes, bytes);
            put_be32(&ev->be_tx_packets, pkts);
            put_be32(&ev->be_rtt_req_send_ts, (uint32_t)get(&t, "rs", 0));
            put_be32(&ev->be_rtt_req_recv_ts, (uint32_t)get(&t, "rr", 0));
            put_be32(&ev->be_rtt_resp_send_ts, (uint32_t)get(&t, "rp", 0));
            ev->nicsim_flags = (uint8_t)get(&t, "flags", 0);
            ev->nicsim_type = (uint8_t)java_type;
            attr->now_ns = ts;
            *(uint32_t *)(mb + NICSIM_MB_CALL) = NICSIM_CALL_EVENT;
            if ((nicsim_pcc_disabled_events >> type) & 1) {
                doca_pcc_dev_printf("%u disabled\n", line);
                continue;
            }
            nicsim_rt_event(mb, &test_ctx);
            print_results(line, t.start[0], t.len[0], mb);
        } else {
            doca_pcc_dev_printf("%u bad line\n", line);
            return 1;
        }
    }
    return 0;
}

#endif
