/**
 * The node daemon's gRPC edge: the NodeControl service the controller calls. A launch's job
 * credential is checked here on the request as it arrived; the request is then mapped once
 * ({@code wire}) and launch code sees only the node's values.
 */
package dev.sluice.noded.rpc;
