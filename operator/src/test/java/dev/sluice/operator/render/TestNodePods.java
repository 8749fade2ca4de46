package dev.sluice.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.operator.crd.ContainerWrapper;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.reconcile.Resources;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import org.junit.jupiter.api.Test;

class TestNodePods {
    private final Controller lab = Resources.controller("lab", 6817, null);

    @Test
    void theLimitsAreWhatTheNodeOffers() {
        NodeSet set = Resources.nodeSet("gpu", "lab", 1, 60);
        set.getSpec().slurmd = new ContainerWrapper();
        set.getSpec().slurmd.resources = new ResourceRequirementsBuilder()
                .addToLimits("cpu", new Quantity("8"))
                .addToLimits("memory", new Quantity("32Gi"))
                .addToLimits("nvidia.com/gpu", new Quantity("2"))
                .build();
        set.getSpec().extraConf = "Weight=10";
        assertThat(NodePods.nodeConf(set)).isEqualTo("CPUs=8 RealMemory=32768 Gres=gpu:2 Feature=gpu Weight=10");
    }

    @Test
    void theTemplateHashFollowsTheTemplateNotTheOrdinal() {
        NodeSet set = Resources.nodeSet("gpu", "lab", 1, 60);
        String before = NodePods.templateHash(set, lab, "img:1");
        assertThat(NodePods.pod(set, lab, 3, "img:1").getMetadata().getAnnotations())
                .containsEntry(Names.ANNOTATION_TEMPLATE_HASH, before);
        set.getSpec().replicas = 5;
        assertThat(NodePods.templateHash(set, lab, "img:1")).isEqualTo(before);
        set.getSpec().slurmd = new ContainerWrapper();
        set.getSpec().slurmd.image = "img:2";
        assertThat(NodePods.templateHash(set, lab, "img:1")).isNotEqualTo(before);
    }
}
