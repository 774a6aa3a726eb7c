/* no_user_algo.c - test firmware without doca_pcc_dev_user_algo: the emulator must refuse it (exit 2). */
#define TESTFW_NAME "no doca_pcc_dev_user_algo"
#include "testfw_common.h"
