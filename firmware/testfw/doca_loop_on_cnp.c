/* doca_loop_on_cnp.c - test firmware: registers no slot, counts every doca_pcc_dev_user_algo call,
 * loops forever on every CNP, passes other events to doca_pcc_dev_default_internal_algo
 * (testfw_doca_dispatch.h). */
#define TESTFW_LOOP_ON_CNP 1
#include "testfw_doca_dispatch.h"
