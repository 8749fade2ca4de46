/**
 * The wire contract: generated {@code sluice.v1} protobuf and gRPC classes, the command-socket
 * framing ({@link dev.sluice.protocol.Frames}) and the protocol version. No logic lives here.
 */
package dev.sluice.protocol;
