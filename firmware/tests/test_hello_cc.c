/* test_hello_cc.c - scripted events through hello_cc (tests/scripts/hello_cc.script), see driver.h */
#define TEST_NAME hello_cc
#include "driver.h"
