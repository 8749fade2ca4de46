package dev.sluice.cli.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.view.JobView;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import dev.sluice.protocol.v1.NodeInfo;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The v0.0.38 job record's parts that depend on the node's layout. */
class TestJobRecord38 {
    private static String record(JobInfo job, Map<String, NodeInfo> nodes) {
        JsonWriter w = new JsonWriter();
        JobRecord38.write(
                w,
                new JobView(
                        job,
                        Fixtures.SQUEUE_NOW,
                        Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC),
                        TestingInvocations.USERS),
                "test",
                nodes);
        return w.toString();
    }

    @Test
    void cpuIdsBecomeSocketsAndCoresOfTheNodesLayout() {
        // Two threads per core, two cores per socket: CPUs 0-3 are cores 0 and 1 of socket 0,
        // CPU 4 is core 0 of socket 1; a core's two threads name it once.
        JobInfo job = Fixtures.job(7, Fixtures.wrapSpec(), JobState.RUNNING)
                .setNodeList("n1")
                .addNodeGres(NodeGres.newBuilder()
                        .setNode("n1")
                        .addAllCpuIds(java.util.List.of(0, 1, 2, 3, 4))
                        .setMemoryMb(100))
                .build();
        NodeInfo n1 = NodeInfo.newBuilder()
                .setName("n1")
                .setThreadsPerCore(2)
                .setCoresPerSocket(2)
                .build();
        String json = record(job, Map.of("n1", n1));
        assertThat(json).contains("""
                    "allocated_nodes": [
                      {
                        "sockets": {
                          "0": {
                            "cores": {
                              "0": "allocated",
                              "1": "allocated"
                            }
                          },
                          "1": {
                            "cores": {
                              "0": "allocated"
                            }
                          }
                        },
                        "nodename": "n1",
                        "cpus_used": 0,
                        "memory_used": 0,
                        "memory_allocated": 100
                      }
                    ]
                """);
        assertThat(json).contains("\"flags\": [\n    \"JOB_WAS_RUNNING\"\n  ],");
    }

    @Test
    void aPendingJobHasNoResourcesAndNoFlags() {
        JobInfo job = Fixtures.job(8, Fixtures.wrapSpec(), JobState.PENDING).build();
        String json = record(job, Map.of());
        assertThat(json).doesNotContain("job_resources").contains("\"flags\": [\n  ],");
        assertThat(json).contains("\"job_state\": \"PENDING\",");
    }

    /** TrackWCKey=yes: the wckey as the controller holds it, "*name" for a default (compat 233). */
    @Test
    void theJobsWckeyIsPrintedAsHeld() {
        JobInfo asked = Fixtures.job(9, Fixtures.wrapSpec().setWckey("w233b"), JobState.PENDING)
                .build();
        JobInfo byDefault = Fixtures.job(10, Fixtures.wrapSpec().setWckey("*w233a"), JobState.PENDING)
                .build();
        JobInfo untracked =
                Fixtures.job(11, Fixtures.wrapSpec(), JobState.PENDING).build();
        assertThat(record(asked, Map.of())).contains("\"wckey\": \"w233b\",");
        assertThat(record(byDefault, Map.of())).contains("\"wckey\": \"*w233a\",");
        assertThat(record(untracked, Map.of())).contains("\"wckey\": \"\",");
    }

    /** The association the controller has the job under; 0 for a job without one (compat 233, 146). */
    @Test
    void theAssociationIdIsTheControllers() {
        JobInfo under = Fixtures.job(12, Fixtures.wrapSpec(), JobState.PENDING)
                .setAssociationId(6)
                .build();
        assertThat(record(under, Map.of())).contains("\"association_id\": 6,");
        assertThat(record(
                        Fixtures.job(13, Fixtures.wrapSpec(), JobState.PENDING).build(), Map.of()))
                .contains("\"association_id\": 0,");
    }
}
