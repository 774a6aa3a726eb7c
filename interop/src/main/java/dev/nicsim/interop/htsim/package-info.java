/**
 * uet-htsim, the Ultra Ethernet consortium's packet simulator: readers of its connection matrices
 * ({@code .cm}, {@code .tm}), two-tier topology files ({@code .topo}) and command-line flags as its
 * validation plans write them; the mapping of one experiment onto a nicsim scenario
 * ({@code nicsim htsim import}); and the side-by-side of a nicsim run with one experiment of its
 * committed validation outputs ({@code nicsim htsim compare}).
 *
 * <p>Every reader rejects a malformed line with a {@link dev.nicsim.scenario.ScenarioException}
 * whose one-line message is {@code file:line: what was expected, what was found}; a flag nicsim
 * cannot model is refused in one line naming the flag and why.
 */
package dev.nicsim.interop.htsim;
