/* must NOT compile under DOCA 3.3 (make check-headers): the fixed 2.x counter IDs are not in 3.x */
#include <doca_pcc_dev.h>
uint32_t tx_id(void);
uint32_t tx_id(void) { return DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES; }
