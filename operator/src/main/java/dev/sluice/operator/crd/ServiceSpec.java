package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

/** Slinky's {@code ServiceSpec}: the daemon's port, and a partial Kubernetes ServiceSpec. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ServiceSpec {
    public Metadata metadata;

    @PreserveUnknownFields
    public JsonNode spec;

    /** The port the daemon listens on and the Service exposes (0: the daemon's default). */
    public Integer port;

    public Integer nodePort;
}
