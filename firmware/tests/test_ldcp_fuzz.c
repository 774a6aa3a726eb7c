/* test_ldcp_fuzz.c - the generated script tests/scripts/ldcp_fuzz.script through ldcp, see driver.h */
#define TEST_NAME ldcp_fuzz
#include "driver.h"
