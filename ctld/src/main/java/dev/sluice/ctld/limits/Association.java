package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One association: an account's own ({@code user} empty) or a user's in an account, optionally
 * for one partition. {@code qos} empty means "inherit the parent's list". {@code shares} is its
 * fair-share (sacctmgr's {@code Fairshare=}, 1 unless set), {@code id} dbd's number for it (0: none).
 */
public record Association(
        String account,
        String user,
        String partition,
        String parent,
        Limits limits,
        List<String> qos,
        String defaultQos,
        long shares,
        long id) {

    /** Not numbered by dbd (0). */
    public Association(
            String account,
            String user,
            String partition,
            String parent,
            Limits limits,
            List<String> qos,
            String defaultQos,
            long shares) {
        this(account, user, partition, parent, limits, qos, defaultQos, shares, 0);
    }

    /** With Slurm's default of 1 share. */
    public Association(
            String account,
            String user,
            String partition,
            String parent,
            Limits limits,
            List<String> qos,
            String defaultQos) {
        this(account, user, partition, parent, limits, qos, defaultQos, 1, 0);
    }

    public Association {
        requireNonNull(account, "account is null");
        requireNonNull(user, "user is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(parent, "parent is null");
        requireNonNull(limits, "limits is null");
        qos = List.copyOf(qos);
        requireNonNull(defaultQos, "defaultQos is null");
    }

    public boolean isUser() {
        return !user.isEmpty();
    }
}
