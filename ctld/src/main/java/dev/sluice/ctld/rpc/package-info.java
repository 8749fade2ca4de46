/**
 * The controller's RPC edge: the client API handler shared by the command sockets (netty over
 * TCP, and a Unix-domain socket for local users, both length-delimited frames) and gRPC, and the
 * node registry service. {@code CommandGate} is the one place that decides who sent a command —
 * from peer credentials or a verified credential, never from what the request claims (see
 * docs/security.md). Thin: maps wire messages to loop commands and answers from published images.
 */
package dev.sluice.ctld.rpc;
