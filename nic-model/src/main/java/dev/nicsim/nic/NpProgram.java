package dev.nicsim.nic;

/**
 * A notification-point (NP) program: code that answers the RTT probe requests arriving at a NIC in
 * place of its hardware RTT responder, as DOCA PCC's {@code doca_pcc_dev_np_user_packet_handler} does
 * on the receiving NIC's DPA (DOCA PCC fact sheet, Addendum A.7). The NIC hands each probe to
 * {@link #handle} the moment it has fully arrived ({@link RoceNic#setNpProgram}); the program writes
 * the 12 response bytes and its handler time into the {@link NpProbe}, and the NIC sends the response
 * that much later with those bytes as the probe's raw data.
 *
 * <p>Thread-safety: called on the simulation thread only.
 */
public interface NpProgram {
    /** {@link #handle} outcome: the handler returned OK; the response is sent. */
    int OK = 0;
    /** Outcome: the handler returned FAIL ({@code DOCA_PCC_DEV_STATUS_FAIL}); the response is still sent. */
    int FAILED = 1;
    /** Outcome: the handler trapped and was abandoned; no response is sent. */
    int FAULT = 2;
    /** Outcome: the handler ran out of its instruction budget and was abandoned; no response is sent. */
    int BUDGET = 3;

    /**
     * Runs the handler on one probe request.
     *
     * @param probe the request (inputs set by the NIC); the program sets its outputs (response words,
     *              handler time and cycles), also when it returns {@link #FAULT} or {@link #BUDGET}
     * @return {@link #OK}, {@link #FAILED}, {@link #FAULT} or {@link #BUDGET}
     */
    int handle(NpProbe probe);
}
