package dev.sluice.ctld.control;

import static java.util.Objects.requireNonNull;

/**
 * The user on whose behalf a request is made, as the transport authenticated it (never as the
 * request claims).
 *
 * @param operator root, {@code SlurmUser}, or an account with an admin level: Slurm's
 *     operators, who act on anything
 */
public record Caller(int uid, int gid, String userName, boolean operator) {
    public Caller {
        requireNonNull(userName, "userName is null");
    }

    /** A caller who is an operator only when root. */
    public static Caller of(int uid, int gid, String userName) {
        return new Caller(uid, gid, userName, uid == 0);
    }

    public boolean isOperator() {
        return operator;
    }

    /** May this caller act on a job (cancel, update, hold, requeue) of {@code ownerUid}? */
    public boolean mayActOnJobOf(long ownerUid) {
        return operator || uid == ownerUid;
    }
}
