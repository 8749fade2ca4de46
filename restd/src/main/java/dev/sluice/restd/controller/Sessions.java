package dev.sluice.restd.controller;

/** Opens a {@link ControllerSession} for a user whose token the REST daemon has verified. */
@FunctionalInterface
public interface Sessions {
    ControllerSession forUser(String userName, String token);
}
