/** The node daemon's gRPC edge: the NodeControl service the controller calls. */
package dev.sluice.noded.rpc;
