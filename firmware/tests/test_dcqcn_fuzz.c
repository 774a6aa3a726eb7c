/* test_dcqcn_fuzz.c - the generated script tests/scripts/dcqcn_fuzz.script through dcqcn, see driver.h */
#define TEST_NAME dcqcn_fuzz
#include "driver.h"
