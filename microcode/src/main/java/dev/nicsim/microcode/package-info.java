/**
 * The uNIC's congestion-control processor and the built-in algorithms as programs for it.
 *
 * <p>{@link dev.nicsim.pcc.CcProcessor} is the seam the NIC calls: this issue ships
 * {@link dev.nicsim.microcode.DirectCcProcessor}, which runs each event at once with zero processing
 * delay; the many-core emulator implements the same interface, so neither the NIC nor any algorithm
 * changes when it arrives. The algorithms live in {@code dev.nicsim.microcode.algorithms}.
 */
package dev.nicsim.microcode;
