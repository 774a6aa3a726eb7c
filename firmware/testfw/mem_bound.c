/*
 * mem_bound.c - test firmware: a memory-bound handler, for the interleaving tests of the
 * bf3-dpa model (issue 19: "a memory-bound handler on one core"). Every event makes 8 dependent
 * loads at pseudo-random 64-byte lines of an 8 MiB table (more than the 3 MiB last-level cache,
 * so most loads go to DRAM): each address depends on the value the previous load returned, so
 * one thread cannot overlap them and the core's other threads are what hides the memory latency.
 * The start index mixes the event's sequence number, the flow's event count (the first context
 * word) and its flow tag; the rate is left alone.
 */
#define TESTFW_NAME "memory-bound handler"
#include "testfw_common.h"

#define TABLE_LINES ((8u << 20) / 64u)
/* not static: the compiler must not assume the (zero) contents */
uint64_t mem_bound_table[TABLE_LINES * 8u] __attribute__((aligned(64)));

void doca_pcc_dev_user_algo(doca_pcc_dev_algo_ctxt_t *algo_ctxt, doca_pcc_dev_event_t *event,
                            const doca_pcc_dev_attr_t *attr, doca_pcc_dev_results_t *results)
{
    (void)attr;
    (void)results;
    uint32_t n = algo_ctxt->data[0]++;
    /* flows differ in their lines: the flow tag is part of the start (different flows on different
       threads do not share table lines, as different flows' state would not) */
    uint32_t idx = (doca_pcc_dev_get_sn(event) * 2654435761u) ^ (n * 40503u) ^ (doca_pcc_dev_get_flowtag(event) * 0x9E3779B9u);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        idx = (idx * 1664525u + 1013904223u + (uint32_t)v) % TABLE_LINES;
        v = mem_bound_table[(uint64_t)idx * 8u];
    }
    algo_ctxt->data[1] = (uint32_t)v;
}
