package dev.sluice.noded.probe.gres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestJnaNvmlMessage {
    @Test
    void aMissingDriverIsOneShortReasonNotTheClassPath() {
        // JNA 5.19's message on a machine without the NVIDIA driver (seen with sluice-noded --nvml-dump)
        String jna = """
                Unable to load library 'libnvidia-ml.so.1':
                libnvidia-ml.so.1: cannot open shared object file: No such file or directory
                libnvidia-ml.so.1: cannot open shared object file: No such file or directory
                Native library (linux-x86-64/libnvidia-ml.so.1) not found in resource path (/opt/a.jar:/opt/b.jar)""";

        assertThat(JnaNvml.loaderReason(jna))
                .isEqualTo("libnvidia-ml.so.1: cannot open shared object file: No such file or directory");
    }

    @Test
    void anUnknownFormIsKeptToItsFirstLine() {
        assertThat(JnaNvml.loaderReason("Unable to load library 'nvidia-ml'\nNative library x"))
                .isEqualTo("Unable to load library 'nvidia-ml'");
        assertThat(JnaNvml.loaderReason(null)).isEmpty();
    }
}
