package dev.sluice.restd.controller;

import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;

/** sluice-dbd, as seen by one authenticated REST user: every request goes out as that user. */
@FunctionalInterface
public interface AccountingSession {
    /** @throws AccountingException the daemon's refusal, or why it could not be reached */
    DbdResponse call(DbdRequest.Builder request) throws AccountingException;
}
