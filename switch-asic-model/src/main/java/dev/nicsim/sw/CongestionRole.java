package dev.nicsim.sw;

/**
 * The role of a switch port (at one priority) in a congestion region (the RCM paper §3.2): "The switch
 * point with only the local congestion flag set will be marked as root congestion point ... The
 * switch point with only the remote congestion flag set will be marked as the edge of the
 * congestion region, while the switch point with both local congestion flag and remote congestion
 * flag set will be marked as inner congestion point inside the congestion region."
 *
 * <p>The local flag of a port is set while its input queue or its output queue is congested
 * ({@code F_b > 0} at the last sample, not drained since); the remote flag while a congestion
 * notification received on the port is valid ({@link RcmConfig#notificationLifetimePs}).
 */
public enum CongestionRole {
    /** Neither flag: not in a congestion region. */
    NONE,
    /** Local flag only: root congestion point (harmful flows from its own CAM). */
    ROOT,
    /** Remote flag only: edge of the region (harmful flows are the root's IDs from the CN). */
    EDGE,
    /** Both flags: inner congestion point (harmful flows are the root's IDs from the CN). */
    INNER;

    /**
     * @param local  local congestion flag
     * @param remote remote congestion flag
     * @return the role the two flags give
     */
    public static CongestionRole of(final boolean local, final boolean remote) {
        if (local) {
            return remote ? INNER : ROOT;
        }
        return remote ? EDGE : NONE;
    }
}
