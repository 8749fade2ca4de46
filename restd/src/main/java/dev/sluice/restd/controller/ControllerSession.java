package dev.sluice.restd.controller;

import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;

/** The controller, as seen by one authenticated REST user: every request goes out as that user. */
@FunctionalInterface
public interface ControllerSession {
    /** @throws ControllerException the controller's refusal, or why it could not be reached */
    ClientResponse call(ClientRequest.Builder request) throws ControllerException;
}
