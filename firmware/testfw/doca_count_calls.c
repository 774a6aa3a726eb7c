/* doca_count_calls.c - test firmware: registers no slot, counts every doca_pcc_dev_user_algo call
 * and passes every event to doca_pcc_dev_default_internal_algo (testfw_doca_dispatch.h). */
#include "testfw_doca_dispatch.h"
