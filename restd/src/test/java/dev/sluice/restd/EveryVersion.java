package dev.sluice.restd;

import dev.sluice.restd.slurm.ApiVersion;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test class run once per data parser version (v0.0.42 to v0.0.45), each test with a fresh
 * {@link RestFixture} and that version's paths and published schemas.
 */
@ParameterizedClass
@EnumSource(ApiVersion.class)
abstract class EveryVersion {
    @Parameter
    ApiVersion version;

    /** {@code /slurm/vX.Y.Z/}. */
    String V;

    /** {@code /slurmdb/vX.Y.Z/}. */
    String db;

    OpenApiDocs docs;
    RestFixture rest;

    @BeforeEach
    void startFixture() throws IOException {
        docs = OpenApiDocs.of(version);
        V = version.slurmPrefix();
        db = version.slurmdbPrefix();
        rest = new RestFixture();
    }

    @AfterEach
    void stopFixture() {
        if (rest != null) {
            rest.close();
        }
    }
}
