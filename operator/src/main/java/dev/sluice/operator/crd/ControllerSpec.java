package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.List;

/** What a {@link Controller} should be; Slinky's {@code ControllerSpec} field names. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ControllerSpec {
    /** slurm.conf's ClusterName; the resource's name when empty. */
    public String clusterName;

    /** The cluster key ({@code slurm.key}) every daemon and the operator authenticate with. */
    @Required
    public SecretKeySelector slurmKeyRef;

    /** The HS256 key that signs users' JWTs ({@code AuthAltTypes=auth/jwt}), when set. */
    public SecretKeySelector jwtHs256KeyRef;

    /** The {@link Accounting} this cluster records to, when set. */
    public LocalObjectReference accountingRef;

    public ContainerWrapper slurmctld;
    public PodTemplate template;
    /** Lines appended to the rendered slurm.conf (they win over the operator's). */
    public String extraConf;

    /** ConfigMaps whose keys become files beside slurm.conf (gres.conf, cgroup.conf, ...). */
    public List<LocalObjectReference> configFileRefs;

    public ControllerPersistence persistence;
    public ServiceSpec service;
    public Metrics metrics;
}
