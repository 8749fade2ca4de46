/** The daemon's process: command line, gRPC service for the controller, command socket for sacct. */
package dev.sluice.dbd.server;
