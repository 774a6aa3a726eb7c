/* must compile under every surface (make check-headers): a program that carries its own shim for
 * the names DOCA 3.x removed, defined as macros before the DOCA headers, keeps them; nicsim's
 * "removed" declarations of those names step aside */
#include <doca_version.h>
#if DOCA_VERSION_MAJOR >= 3
#define DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES DOCA_PCC_DEV_GET_PORT_COUNTER_ID(0, DOCA_PCC_DEV_NIC_COUNTER_TYPE_TX_BYTES, 0)
#endif
#if DOCA_VERSION_MAJOR == 3 && DOCA_VERSION_MINOR >= 3
#define DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES 1
#endif
#include <doca_pcc_dev.h>
uint32_t shim_tx_id(void);
uint32_t shim_tx_id(void) { return DOCA_PCC_DEV_NIC_COUNTER_PORT0_TX_BYTES; }
uint32_t shim_rx_id(void);
uint32_t shim_rx_id(void) { return DOCA_PCC_DEV_GET_PORT_COUNTER_ID(0, DOCA_PCC_DEV_NIC_COUNTER_TYPE_RX_BYTES, 0); }
