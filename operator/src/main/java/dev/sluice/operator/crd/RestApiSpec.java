package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;

/** What a {@link RestApi} should be; Slinky's {@code RestApiSpec} field names. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class RestApiSpec {
    @Required
    public LocalObjectReference controllerRef;

    @Min(0)
    public Integer replicas;

    public ContainerWrapper slurmrestd;
    public PodTemplate template;
    public ServiceSpec service;
}
