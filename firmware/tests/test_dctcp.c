/* test_dctcp.c - scripted events through dctcp (tests/scripts/dctcp.script), see driver.h */
#define TEST_NAME dctcp
#include "driver.h"
