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

    /** An association of {@code account}: the account's own until {@link Builder#user} names a user. */
    public static Builder builder(String account) {
        return new Builder(account);
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

    /**
     * Collects an association; what is not set keeps sacctmgr's default: no user, partition or
     * parent, no limits, the parent's QOS list, 1 share, not numbered by dbd.
     */
    public static final class Builder {
        private final String account;
        private String user = "";
        private String partition = "";
        private String parent = "";
        private Limits limits = Limits.UNSET;
        private List<String> qos = List.of();
        private String defaultQos = "";
        private long shares = 1;
        private long id;

        private Builder(String account) {
            this.account = requireNonNull(account, "account is null");
        }

        public Builder user(String value) {
            this.user = value;
            return this;
        }

        public Builder partition(String value) {
            this.partition = value;
            return this;
        }

        public Builder parent(String value) {
            this.parent = value;
            return this;
        }

        public Builder limits(Limits value) {
            this.limits = value;
            return this;
        }

        public Builder qos(List<String> value) {
            this.qos = value;
            return this;
        }

        public Builder defaultQos(String value) {
            this.defaultQos = value;
            return this;
        }

        /** {@code Fairshare=}. */
        public Builder shares(long value) {
            this.shares = value;
            return this;
        }

        public Builder id(long value) {
            this.id = value;
            return this;
        }

        public Association build() {
            return new Association(account, user, partition, parent, limits, qos, defaultQos, shares, id);
        }
    }
}
