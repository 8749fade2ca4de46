/**
 * The controller's RPC edge: the client API handler shared by the command socket (netty,
 * length-delimited frames) and gRPC, and the node registry service. Thin: maps wire messages
 * to loop commands and answers from published images.
 */
package dev.sluice.ctld.rpc;
