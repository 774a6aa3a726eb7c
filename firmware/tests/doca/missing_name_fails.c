/* must NOT compile (make check-headers): a DOCA name nicsim lacks fails with the compiler's own
 * message (docs/doca-pcc.md lists it as not supported)
 * expect: error: implicit declaration of function 'doca_pcc_np_dev_set_response_prio'
 */
#include <doca_pcc_np_dev.h>
void prio(struct doca_pcc_np_dev_response_packet *out);
void prio(struct doca_pcc_np_dev_response_packet *out) { doca_pcc_np_dev_set_response_prio(out, 26); }
