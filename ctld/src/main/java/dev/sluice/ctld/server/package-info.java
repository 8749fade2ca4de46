/** Start-up and wiring of the controller: command line, configuration, servers, shutdown. */
package dev.sluice.ctld.server;
