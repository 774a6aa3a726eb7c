/* test_ldcp.c - scripted events through ldcp (tests/scripts/ldcp.script), see driver.h */
#define TEST_NAME ldcp
#include "driver.h"
