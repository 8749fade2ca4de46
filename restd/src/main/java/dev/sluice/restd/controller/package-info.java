/**
 * How the REST daemon reaches the controller: one {@link dev.sluice.restd.controller.ControllerSession}
 * per request, speaking for the user whose token came with it.
 */
package dev.sluice.restd.controller;
