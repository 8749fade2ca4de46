/**
 * Request handlers of the controller: each reads the current state and returns a
 * {@link dev.sluice.ctld.control.ControlResult} (records, soft changes, effects, answer). They
 * never mutate state and never do I/O; the controller loop applies what they decide.
 */
package dev.sluice.ctld.control;
