package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/** What a {@link LoginSet} should be; Slinky's {@code LoginSetSpec} field names. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class LoginSetSpec {
    @Required
    public LocalObjectReference controllerRef;

    @Min(0)
    public Integer replicas;

    public ContainerWrapper login;
    public PodTemplate template;
    public String rootSshAuthorizedKeys;
    public String extraSshdConfig;
    /** The sssd.conf that tells the login pods who the users are. */
    public SecretKeySelector sssdConfRef;

    public ServiceSpec service;
}
