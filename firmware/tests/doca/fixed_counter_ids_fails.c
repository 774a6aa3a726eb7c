/* must NOT compile under DOCA 3.x (make check-headers): the fixed 2.x counter IDs are not in 3.x,
 * and the one error says which release had them and which flag builds the program as it was
 * expect: error: 'DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES' is unavailable: fixed counter ID removed after DOCA 2.x; build with DOCA_VERSION=2.9, or use DOCA_PCC_DEV_GET_PORT_COUNTER_ID(port, type, 0)
 */
#include <doca_pcc_dev.h>
uint32_t tx_id(void);
uint32_t tx_id(void) { return DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES; }
