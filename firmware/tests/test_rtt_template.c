/* test_rtt_template.c - scripted events through rtt_template (tests/scripts/rtt_template.script), see driver.h */
#define TEST_NAME rtt_template
#include "driver.h"
