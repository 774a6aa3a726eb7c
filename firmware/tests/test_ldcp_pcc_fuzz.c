/* test_ldcp_pcc_fuzz.c - the generated script tests/scripts/ldcp_pcc_fuzz.script through ldcp_pcc, see driver.h */
#define TEST_NAME ldcp_pcc_fuzz
#include "driver.h"
