package dev.sluice.ctld.control;

import static java.util.Objects.requireNonNull;

/** The user on whose behalf a request is made. */
public record Caller(int uid, int gid, String userName) {
    public Caller {
        requireNonNull(userName, "userName is null");
    }

    /** Root acts on anything, as Slurm's operators do. */
    public boolean isOperator() {
        return uid == 0;
    }
}
