/**
 * Recording what a CC processor sees and does, without changing the NIC or the algorithms: the
 * model emits to the typed {@link dev.nicsim.microcode.trace.PccTraceListener} (flow starts and
 * ends, every PCC event offered, every result with its effective time and cycles), and
 * {@link dev.nicsim.microcode.trace.RecordingCcProcessor} is the decorator that reports a real
 * processor's traffic to one. A Chronicle Queue trace (module {@code fabric}, {@code nicsim run
 * --record}) is one implementation of the listener; the no-op
 * {@link dev.nicsim.microcode.trace.PccTraceListener#NO_OP} is the default.
 */
package dev.nicsim.microcode.trace;
