/* must NOT compile under DOCA 3.3 (make check-headers): the RX-bytes counter type left the 3.3 headers
 * expect: error: 'DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES' is unavailable: removed in DOCA 3.3; build with DOCA_VERSION=3.2
 */
#include <doca_pcc_dev.h>
uint32_t rx_id(void);
uint32_t rx_id(void) { return DOCA_PCC_DEV_GET_PORT_COUNTER_ID(0, DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES, 0); }
