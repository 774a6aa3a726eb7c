/* test_dctcp_fuzz.c - the generated script tests/scripts/dctcp_fuzz.script through dctcp, see driver.h */
#define TEST_NAME dctcp_fuzz
#include "driver.h"
