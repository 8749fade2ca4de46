/**
 * The commands' side of the command socket: finding the controller from {@code slurm.conf},
 * sending one {@code ClientRequest} frame and reading one {@code ClientResponse} frame over a
 * plain TCP socket (no gRPC, no netty: a command's JVM must start in tens of milliseconds), and
 * turning failures into Slurm's error codes. Owns no formatting and no option parsing.
 */
package dev.sluice.cli.client;
