package dev.sluice.noded.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.NodeHardware;

/**
 * How one node daemon runs: its name and address, the resources it reports, where it spools,
 * and where the controller listens.
 *
 * @param port the NodeControl gRPC port; 0 binds an ephemeral one
 */
public record NodedSettings(
        String nodeName,
        String hostname,
        String addr,
        String bindHost,
        int port,
        NodeHardware hardware,
        boolean dynamic,
        String spoolDir,
        String controllerHost,
        int controllerGrpcPort) {

    public NodedSettings {
        requireNonNull(nodeName, "nodeName is null");
        requireNonNull(hostname, "hostname is null");
        requireNonNull(addr, "addr is null");
        requireNonNull(hardware, "hardware is null");
        requireNonNull(spoolDir, "spoolDir is null");
        requireNonNull(controllerHost, "controllerHost is null");
    }
}
