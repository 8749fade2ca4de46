package dev.sluice.restd.controller;

import java.util.Optional;

/** Opens sessions for a user whose token the REST daemon has verified. */
public interface Sessions {
    ControllerSession forUser(String userName, String token);

    /** sluice-dbd for that user; empty where slurm.conf keeps no accounting through a dbd. */
    Optional<AccountingSession> accountingForUser(String userName, String token);
}
