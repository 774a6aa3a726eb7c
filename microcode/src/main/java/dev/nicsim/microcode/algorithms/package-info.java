/**
 * The built-in congestion-control algorithms, written against the PCC contract
 * ({@link dev.nicsim.pcc}) as NIC microcode: all per-flow state in the flow's context words, integer
 * and 16.16 fixed-point arithmetic, no allocation per event, and a documented cycle estimate per
 * event type.
 *
 * <table>
 *   <caption>providers (registered in META-INF/services/dev.nicsim.pcc.PccAlgorithmProvider)</caption>
 *   <tr><th>name</th><th>provider</th><th>algorithm</th><th>spec</th></tr>
 *   <tr><td>{@code ldcp}</td><td>{@link dev.nicsim.microcode.algorithms.LdcpProvider}</td>
 *       <td>{@link dev.nicsim.microcode.algorithms.LdcpAlgorithm}</td><td>000 §2.2, §2.3, §3.1</td></tr>
 *   <tr><td>{@code ldcp-pcc}</td><td>{@link dev.nicsim.microcode.algorithms.LdcpPccProvider}</td>
 *       <td>{@link dev.nicsim.microcode.algorithms.LdcpPccAlgorithm}</td><td>000 §3.2</td></tr>
 *   <tr><td>{@code dctcp}</td><td>{@link dev.nicsim.microcode.algorithms.DctcpProvider}</td>
 *       <td>{@link dev.nicsim.microcode.algorithms.DctcpAlgorithm}</td><td>002 §3.3</td></tr>
 *   <tr><td>{@code dcqcn}</td><td>{@link dev.nicsim.microcode.algorithms.DcqcnProvider}</td>
 *       <td>{@link dev.nicsim.microcode.algorithms.DcqcnAlgorithm}</td><td>003 §7, Mellanox defaults</td></tr>
 *   <tr><td>{@code nscc}</td><td>{@link dev.nicsim.microcode.algorithms.NsccProvider}</td>
 *       <td>{@link dev.nicsim.microcode.algorithms.NsccAlgorithm}</td><td>UET NSCC as uet-htsim's uec.cpp runs it</td></tr>
 * </table>
 *
 * <p>Each algorithm is declared as data and its plumbing is written once: the provider's
 * {@code TABLE} ({@link dev.nicsim.microcode.algorithms.AlgorithmTable}: name, description, a text
 * table of parameter rows, counter names) is all a provider adds to
 * {@link dev.nicsim.microcode.algorithms.TableProvider}; the algorithm extends
 * {@link dev.nicsim.microcode.algorithms.TableAlgorithm}, which allocates the counters and serves
 * the context size and cycle estimate, reads its parameters by table name into final fields, and
 * increments its counters through {@code C_...} ids that index the table's counter list.
 *
 * <p>Units: windows in packets are 16.16 ({@code 1 << 16} = one MTU of payload); window results
 * are bytes; rate results are 20-bit fractions of line rate; DCQCN keeps its rates in kb/s.
 */
package dev.nicsim.microcode.algorithms;
