/*
 * hello_cc.h - shared ids of the hello_cc example algorithm (nicsim's own DOCA-style example,
 * written only against DOCA PCC names): context words, parameters, counters.
 */
#ifndef HELLO_CC_H
#define HELLO_CC_H

#include <doca_pcc_dev.h>

/* context words */
#define HELLO_W_RATE 0        /* current rate, 20-bit fraction of line rate; 0 = new flow */
#define HELLO_W_LAST_CNP_NS 1 /* time of the last rate cut, ns */
#define HELLO_W_LAST_INC_NS 2 /* time of the last increase, ns */

/* parameters */
enum hello_param {
    HELLO_P_DECREASE = 0, /* 16.16 factor kept on a cut (0.5) */
    HELLO_P_AI,           /* additive increase, 20-bit units */
    HELLO_P_RECOVERY_NS,  /* no increase within this long after a cut or the previous increase */
    HELLO_P_MIN_RATE,     /* floor, 20-bit units */
    HELLO_P_NUM
};

/* counters */
enum hello_counter { HELLO_C_CUTS = 0, HELLO_C_INCREASES, HELLO_C_NUM };

#define HELLO_ALGO_IDX 0

#endif
