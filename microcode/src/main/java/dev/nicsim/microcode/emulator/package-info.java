/**
 * The many-core uNIC emulator (docs/architecture.md "The uNIC emulator"): {@link
 * dev.nicsim.microcode.emulator.UnicEmulator} implements {@link dev.nicsim.pcc.CcProcessor}
 * with cores x hardware threads at a clock, Agrona event rings (one per core when free-running;
 * stepped, events go straight into the owning core's pending table), QP ownership by core,
 * coalescing in a core-local pending-event table, overload drops counted per event type, an LRU
 * context cache per core and cycle-approximate timing; it runs stepped by simulated time
 * (deterministic, no threads) or free-running on Agrona agent threads.
 * {@link dev.nicsim.microcode.emulator.EmulatorConfig} holds its knobs.
 */
package dev.nicsim.microcode.emulator;
