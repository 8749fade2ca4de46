/**
 * Authentication between the daemons (sluice-ctld, sluice-noded, sluice-dbd) and the job
 * credentials of launches. Every gRPC call carries a short-lived credential signed with the
 * cluster key and bound to the exact bytes of its request ({@link dev.sluice.protocol.auth.DaemonAuth});
 * the receiving daemon checks signature, audience, time window, single use and that the signer
 * is a daemon account. Launch requests carry a second credential, the controller's signature
 * over the job, its owner and the receiving node ({@link dev.sluice.protocol.auth.JobCredentials}),
 * so a node daemon runs only what the controller allocated to it, once. The command sockets
 * users' commands speak to (sluice-ctld's, sluice-dbd's) prove the sender of each frame through
 * one handler, {@link dev.sluice.protocol.auth.AuthenticatedFrames}.
 */
package dev.sluice.protocol.auth;
