/*
 * doca_pcc_dev_services.h - DOCA PCC device services (Addendum A.1, A.5): the host mailbox callback,
 * output and the thread rank. nicsim implementation (runtime/rt.c, runtime/print.c); written for
 * nicsim from the public description, not copied from NVIDIA.
 */
#ifndef DOCA_PCC_DEV_SERVICES_H
#define DOCA_PCC_DEV_SERVICES_H

#include "doca_pcc_dev_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Optional user callback, run on the device for each host mailbox message (nicsim: the scenario's
 * firmware.mailbox messages). request holds request_size bytes; the callback may write up to
 * max_response_size bytes to response and their number to *response_size (preset to 0), and returns
 * DOCA_PCC_DEV_STATUS_OK or _FAIL; both are recorded in mailbox.csv.
 */
doca_pcc_dev_error_t doca_pcc_dev_user_mailbox_handle(void *request, uint32_t request_size, uint32_t max_response_size,
                                                      void *response, uint32_t *response_size);

/**
 * Prints into the run's firmware log (ecall NICSIM_ECALL_PRINT; under riscv run / QEMU, to
 * stdout). Formats: %d %i %u %x %X %p %c %s %% with l/ll/z, width and 0/- flags; output beyond
 * 255 bytes per call is cut.
 */
void doca_pcc_dev_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));

/**
 * Hands format_id and five 64-bit values to the trace (ecall NICSIM_ECALL_TRACE). nicsim keeps no trace
 * buffer: the record is dropped, and the run warns at the first call and counts them (docs/firmware.md).
 */
void doca_pcc_dev_trace_5(int format_id, uint64_t arg1, uint64_t arg2, uint64_t arg3, uint64_t arg4, uint64_t arg5);

/** Flushes the trace (ecall NICSIM_ECALL_TRACE_FLUSH); nicsim: nothing to flush, warned and counted as trace_5. */
void doca_pcc_dev_trace_flush(void);

/** @return the global hardware-thread index, 0..255 (mailbox thread_rank) */
unsigned int doca_pcc_dev_thread_rank(void);

#ifdef __cplusplus
}
#endif

#endif
