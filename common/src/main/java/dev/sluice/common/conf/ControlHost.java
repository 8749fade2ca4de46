package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

/** A controller host: {@code SlurmctldHost=name(addr)}, or the legacy ControlMachine/ControlAddr. */
public record ControlHost(String name, String addr) {
    public ControlHost {
        requireNonNull(name, "name is null");
        requireNonNull(addr, "addr is null");
    }
}
