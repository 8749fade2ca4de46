package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One association: an account's own ({@code user} empty) or a user's in an account, optionally
 * for one partition. {@code qos} empty means "inherit the parent's list".
 */
public record Association(
        String account,
        String user,
        String partition,
        String parent,
        Limits limits,
        List<String> qos,
        String defaultQos) {
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
