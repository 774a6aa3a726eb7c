/* test_ldcp_pcc.c - scripted events through ldcp_pcc (tests/scripts/ldcp_pcc.script), see driver.h */
#define TEST_NAME ldcp_pcc
#include "driver.h"
