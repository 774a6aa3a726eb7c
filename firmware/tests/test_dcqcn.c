/* test_dcqcn.c - scripted events through dcqcn (tests/scripts/dcqcn.script), see driver.h */
#define TEST_NAME dcqcn
#include "driver.h"
