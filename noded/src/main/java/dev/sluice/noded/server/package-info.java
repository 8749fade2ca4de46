/** Start-up and wiring of the node daemon: command line, configuration, servers, shutdown. */
package dev.sluice.noded.server;
