package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;

/**
 * Slinky's {@code PodTemplate}: metadata for the pods and a partial {@code PodSpec}
 * (nodeSelector, tolerations, affinity, ...) merged under the operator's own; kept as given.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class PodTemplate {
    public Metadata metadata;

    @PreserveUnknownFields
    public JsonNode spec;
}
