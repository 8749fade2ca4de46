package dev.sluice.common.auth;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** Who a verified credential speaks for: the user's ids and name, and the host it came from. */
public record Principal(long uid, long gid, String userName, List<Long> groups, String host) {
    public Principal {
        requireNonNull(userName, "userName is null");
        requireNonNull(host, "host is null");
        groups = List.copyOf(groups);
    }
}
