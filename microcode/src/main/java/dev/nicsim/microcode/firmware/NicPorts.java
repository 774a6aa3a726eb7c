package dev.nicsim.microcode.firmware;

import dev.nicsim.pcc.PccParameterValues;

/**
 * The simulated NIC behind a firmware image, as its DOCA port queries and NIC counters see it
 * ({@code doca_pcc_dev_get_logical_ports}, {@code _get_port_speed}, {@code _nic_counters_sample};
 * DOCA PCC fact sheet, Addendum A.3): nicsim NICs have one port, 0. The run wires each NIC's own
 * byte counters in ({@link FirmwareProvider#processorInstances(PccParameterValues, NicPorts)});
 * without it (replay, profile, unit tests of the algorithm) the counters are not modelled and a
 * sample reads 0, and the port speed is the first flow's line rate.
 *
 * <p>Thread-safety: called from the thread that drives the NIC, at the simulated time a handler runs.
 */
public interface NicPorts {
    /**
     * @return the port's speed, bits/s (the scenario's link rate)
     * @param port logical port, 0..3
     */
    long speedBitsPerSec(int port);

    /**
     * @param port logical port, 0..3
     * @return bytes of frames the port has sent so far (all traffic), a free-running count
     */
    long txBytes(int port);

    /**
     * @param port logical port, 0..3
     * @return bytes of frames the port has received so far
     */
    long rxBytes(int port);

    /**
     * The NIC's host index, which names the NIC in fault texts ({@code host<i>}, as in {@code counters.csv})
     * and breaks ties between faults at the same simulated time ({@link FirmwareProvider#firstFault()}).
     *
     * @return the host index, 0 or more; -1 when not known (the default)
     */
    default int host() {
        return -1;
    }

    /**
     * The simulated time of the NIC now, as the thread that drives it sees it (in a partitioned run, its
     * partition's clock); a fault is recorded at this time.
     *
     * @return the time, ps, 0 or more; -1 when not known (the default)
     */
    default long nowPs() {
        return -1;
    }
}
