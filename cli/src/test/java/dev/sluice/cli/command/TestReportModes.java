package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.agent.AgentFrames;
import dev.sluice.cli.command.sinfo.SinfoCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.AgentHarness;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --json}, {@code -i} and sinfo's {@code -O} against the cluster of {@link Fixtures}.
 * Expected layouts were observed with real Slurm 22.05.8 ({@code /work/shared/tools/real-slurm},
 * 2026-11-29); each test names the command it was checked with.
 */
class TestReportModes {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(Answers::fixtureCluster);

    private TestingInvocations.Output both(Command command, String... args) {
        return cli.runBothWays(command, Fixtures.LATER_NOW, args);
    }

    private String stdout(Command command, String... args) {
        TestingInvocations.Output o = both(command, args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        return o.out();
    }

    // The envelope squeue --json and sinfo --json print before their records (22.05.8, byte for byte).
    private static final String ENVELOPE = """
            {
              "meta": {
                "plugin": {
                  "type": "openapi\\/v0.0.38",
                  "name": "Slurm OpenAPI v0.0.38"
                },
                "Slurm": {
                  "version": {
                    "major": 22,
                    "micro": 8,
                    "minor": 5
                  },
                  "release": "22.05.8"
                }
              },
              "errors": [
              ],
            """;

    // Members of a running job in squeue --json, in 22.05.8's order.
    private static final List<String> JOB_MEMBERS = List.of(("account accrue_time admin_comment array_job_id "
                    + "array_task_id array_max_tasks array_task_string association_id batch_features batch_flag "
                    + "batch_host flags burst_buffer burst_buffer_state cluster cluster_features command comment "
                    + "container contiguous core_spec thread_spec cores_per_socket billable_tres cpus_per_task "
                    + "cpu_frequency_minimum cpu_frequency_maximum cpu_frequency_governor cpus_per_tres deadline "
                    + "delay_boot dependency derived_exit_code eligible_time end_time excluded_nodes exit_code "
                    + "features federation_origin federation_siblings_active federation_siblings_viable "
                    + "gres_detail group_id group_name job_id job_resources job_state last_sched_evaluation "
                    + "licenses max_cpus max_nodes mcs_label memory_per_tres name nodes nice tasks_per_core "
                    + "tasks_per_node tasks_per_socket tasks_per_board cpus node_count tasks het_job_id "
                    + "het_job_id_set het_job_offset partition prefer memory_per_node memory_per_cpu "
                    + "minimum_cpus_per_node minimum_tmp_disk_per_node preempt_time pre_sus_time priority profile "
                    + "qos reboot required_nodes requeue resize_time restart_cnt resv_name shared show_flags "
                    + "sockets_per_board sockets_per_node start_time state_description state_reason "
                    + "standard_error standard_input standard_output submit_time suspend_time system_comment "
                    + "time_limit time_minimum threads_per_core tres_bind tres_freq tres_per_job tres_per_node "
                    + "tres_per_socket tres_per_task tres_req_str tres_alloc_str user_id user_name wckey "
                    + "current_working_directory")
            .split(" "));

    // Members of a node in sinfo --json, in 22.05.8's order.
    private static final List<String> NODE_MEMBERS = List.of(("architecture burstbuffer_network_address boards "
                    + "boot_time comment cores cpu_binding cpu_load extra free_memory cpus last_busy features "
                    + "active_features gres gres_drained gres_used mcs_label name next_state_after_reboot address "
                    + "hostname state state_flags next_state_after_reboot_flags operating_system owner partitions "
                    + "port real_memory reason reason_changed_at reason_set_by_user slurmd_start_time sockets "
                    + "threads temporary_disk weight tres slurmd_version alloc_memory alloc_cpus idle_cpus "
                    + "tres_used tres_weighted")
            .split(" "));

    private static List<String> membersAtDepth3(String json) {
        List<String> names = new ArrayList<>();
        // After the envelope, whose meta members sit at the same depth.
        Matcher m = Pattern.compile("(?m)^      \"(\\w+)\":").matcher(json.substring(ENVELOPE.length()));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void squeueJsonHasSlurmsEnvelopeMembersAndNoFinalNewline() {
        String json = stdout(new SqueueCommand(), "--json");
        assertThat(json).startsWith(ENVELOPE + "  \"jobs\": [\n    {\n").endsWith("\n  ]\n}");
        List<String> members = membersAtDepth3(json);
        // The first job runs (it has job_resources, as in 22.05); the pending ones have none.
        assertThat(members.subList(0, JOB_MEMBERS.size())).isEqualTo(JOB_MEMBERS);
        assertThat(members).filteredOn("job_id"::equals).hasSize(5);
        assertThat(json)
                .contains("      \"job_id\": 1,\n")
                .contains("      \"job_state\": \"RUNNING\",\n")
                .contains("      \"state_reason\": \"Resources\",\n")
                .contains("      \"nodes\": \"n[1-2]\",\n")
                .contains("      \"tres_alloc_str\": \"cpu=2,node=2,billing=2\",\n")
                .contains("      \"start_time\": " + Fixtures.START + ",\n")
                .contains("      \"time_limit\": 60,\n")
                .contains("      \"cluster\": \"test\",\n")
                .contains("      \"current_working_directory\": \"\\/tmp\\/gold\"\n")
                .contains("      \"billable_tres\": 1.0,\n");
    }

    @Test
    void squeueJsonListsEveryJobWhateverTheFilters() {
        // 22.05.8: squeue --json -j J -t R, -p, -u and an unknown -j print the whole queue, exit 0
        // (compat scenario 146).
        String all = stdout(new SqueueCommand(), "--json");
        for (String[] args : List.of(
                new String[] {"--json", "-t", "R"},
                new String[] {"--json", "-j", "3"},
                new String[] {"--json", "-p", "debug"},
                new String[] {"--json", "-j", "999"})) {
            assertThat(stdout(new SqueueCommand(), args))
                    .as(String.join(" ", args))
                    .isEqualTo(all);
        }
    }

    @Test
    void sinfoJsonListsTheNodesThatPassTheFilters() {
        String json = stdout(new SinfoCommand(), "--json");
        assertThat(json).startsWith(ENVELOPE + "  \"nodes\": [\n    {\n").endsWith("\n  ]\n}");
        List<String> members = membersAtDepth3(json);
        assertThat(members.subList(0, NODE_MEMBERS.size())).isEqualTo(NODE_MEMBERS);
        assertThat(members).hasSize(3 * NODE_MEMBERS.size());
        assertThat(json)
                .contains("      \"state\": \"mixed\",\n")
                .contains("      \"cpu_load\": 375,\n")
                .contains("      \"alloc_cpus\": 2,\n      \"idle_cpus\": 2,\n      \"tres_used\": \"cpu=2\",\n")
                .contains("      \"tres_weighted\": 0.0\n");
        String idle = stdout(new SinfoCommand(), "--json", "-t", "idle");
        assertThat(membersAtDepth3(idle)).filteredOn("name"::equals).hasSize(1);
        assertThat(idle).contains("\"name\": \"n3\",");
    }

    @Test
    void sinfoFieldNamesWidthsJustificationAndSuffixes() {
        // sinfo -O "NodeList:5,Partition:.12,CPUs:3|,StateCompact:.3x" printed
        // "NODEL   PARTITIONCPU|STAx" / "n[1-2        gpu*4  |idlx" on 22.05.
        assertThat(stdout(new SinfoCommand(), "-O", "NodeList:5,Partition:.12,CPUs:3|,StateCompact:.3x"))
                .isEqualTo("""
                        NODEL   PARTITIONCPU|STAx
                        n[1-2        gpu*4  |mixx
                        n3           gpu*4  |idlx
                        """);
        // Default width 20, left-justified, padded even in the last column, names in any case.
        String pad = " ".repeat(12);
        assertThat(stdout(new SinfoCommand(), "-N", "-O", "nodelist,cpusstate,GresUsed:.12,AllocMem:4,Version"))
                .isEqualTo("NODELIST" + pad + "CPUS(A/I/O/T)       " + "   GRES_USEDALLOVERSION" + pad + " \n"
                        + "n1                  2/2/0/4                   (null)0   22.05.8             \n"
                        + "n2                  1/3/0/4                   (null)0   22.05.8             \n"
                        + "n3                  0/4/0/4                   (null)0   22.05.8             \n");
    }

    @Test
    void sinfoUnknownFieldNameIsReportedAndSkipped() {
        // sinfo -O "Bogus,cpus": "sinfo: error: Invalid job format specification: Bogus" (sic), exit 0.
        TestingInvocations.Output o = both(new SinfoCommand(), "-O", "Bogus,cpus:5", "-h");
        assertThat(o.exitCode()).isZero();
        assertThat(o.err()).isEqualTo("sinfo: error: Invalid job format specification: Bogus\n");
        // All three nodes have 4 CPUs: one line.
        assertThat(o.out()).isEqualTo("4    \n");
    }

    /** A clock the sleeper moves: each wait advances "now" by what was asked. */
    private static final class SteppedClock extends Clock {
        Instant now = Fixtures.LATER_NOW;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private TestingInvocations.Output iterate(
            java.util.function.Function<Iteration.Sleeper, Command> make, List<Duration> waits, String... args) {
        SteppedClock clock = new SteppedClock();
        Iteration.Sleeper sleeper = d -> {
            waits.add(d);
            if (waits.size() == 2) {
                throw new InterruptedException("Ctrl-C during the second wait");
            }
            clock.now = clock.now.plus(d);
        };
        Invocation inv = new Invocation(
                List.of(args),
                cli.env(),
                cli.dir(),
                new ByteArrayInputStream(new byte[0]),
                TestingInvocations.ROOT,
                clock,
                TestingInvocations.USERS);
        TestingInvocations.Output o = TestingInvocations.run(make.apply(sleeper), inv);
        // The command leaves the interrupt set for its caller, as it should; this thread goes on.
        assertThat(Thread.interrupted()).isTrue();
        return o;
    }

    @Test
    void squeueIteratesWithATimeStampUntilInterrupted() {
        // squeue -i 1 -t R: "Sun Nov 29 14:01:02 2026", header, jobs, empty line, again; exit 130 on SIGINT.
        List<Duration> waits = new ArrayList<>();
        TestingInvocations.Output o = iterate(SqueueCommand::new, waits, "-i", "5", "-t", "R");
        String header = "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n";
        assertThat(o.out())
                .isEqualTo("Sun Nov 29 08:47:04 2026\n" + header
                        + "                 1       gpu     wrap     root  R       0:06      1 n1\n"
                        + "                 2       gpu   gpujob     root  R       0:06      2 n[1-2]\n\n"
                        + "Sun Nov 29 08:47:09 2026\n" + header
                        + "                 1       gpu     wrap     root  R       0:11      1 n1\n"
                        + "                 2       gpu   gpujob     root  R       0:11      2 n[1-2]\n\n");
        assertThat(o.exitCode()).isEqualTo(130);
        assertThat(waits).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(5));
    }

    @Test
    void withoutHeaderOnlyTheEmptyLineSeparatesReports() {
        // squeue -h -i 1 and sinfo -h -i 1 print no time stamp (22.05).
        TestingInvocations.Output q = iterate(SqueueCommand::new, new ArrayList<>(), "-h", "-i", "1", "-j", "4");
        assertThat(q.out())
                .isEqualTo(
                        "                 4       gpu     wrap     root PD       0:00      1 (Priority)\n\n".repeat(2));
        TestingInvocations.Output s = iterate(SinfoCommand::new, new ArrayList<>(), "-h", "-i", "1", "-o", "%N %t");
        assertThat(s.err()).isEmpty();
        assertThat(s.out()).isEqualTo("n[1-2] mix\nn3 idle\n\n".repeat(2));
        assertThat(s.exitCode()).isEqualTo(130);
    }

    @Test
    void sinfoIteratesWithOneTimeStampEvenInLongMode() {
        // sinfo -l -i 1 printed a single time stamp line per report on 22.05.
        TestingInvocations.Output o = iterate(SinfoCommand::new, new ArrayList<>(), "-l", "-i", "2", "-o", "%P %t");
        assertThat(o.out())
                .isEqualTo("Sun Nov 29 08:47:04 2026\nPARTITION STATE\ngpu* mix\ngpu* idle\n\n"
                        + "Sun Nov 29 08:47:06 2026\nPARTITION STATE\ngpu* mix\ngpu* idle\n\n");
    }

    @Test
    void badIterationPeriodsAreRefusedInSlurmsWords() {
        // squeue -i 0: "squeue: error: --iterate=0" and an empty line; sinfo -i abc:
        // "sinfo: error: Error: invalid entry for --iterate=abc"; both exit 1. "1x" is 1.
        TestingInvocations.Output q = both(new SqueueCommand(), "-i", "0");
        assertThat(q.exitCode()).isEqualTo(1);
        assertThat(q.err()).isEqualTo("squeue: error: --iterate=0\n\n");
        assertThat(q.out()).isEmpty();
        TestingInvocations.Output s = both(new SinfoCommand(), "--iterate=abc");
        assertThat(s.exitCode()).isEqualTo(1);
        assertThat(s.err()).isEqualTo("sinfo: error: Error: invalid entry for --iterate=abc\n");
        assertThat(Iteration.seconds("1x")).hasValue(1);
        assertThat(Iteration.seconds("-1")).isEmpty();
    }

    @Test
    void throughTheAgentEachReportArrivesAndCtrlCEndsItWith130() throws Exception {
        // A wait that only an interrupt ends: Ctrl-C must reach it through the agent.
        Iteration.Sleeper forever = d -> new java.util.concurrent.CountDownLatch(1).await();
        try (AgentHarness agent = new AgentHarness(
                        cli.dir(),
                        name -> java.util.Optional.of(new SqueueCommand(forever)),
                        TestingInvocations.USERS,
                        Clock.fixed(Fixtures.LATER_NOW, ZoneOffset.UTC));
                SocketChannel ch = agent.connect()) {
            DataOutputStream out = new DataOutputStream(Channels.newOutputStream(ch));
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(ch)));
            byte[] run = AgentFrames.encodeRun(new AgentFrames.Run(
                    List.of("squeue", "-i", "1", "-h", "-j", "4"),
                    cli.env(),
                    cli.dir().toString()));
            AgentFrames.write(out, AgentFrames.RUN, run, 0, run.length);
            out.flush();
            StringBuilder stdout = new StringBuilder();
            while (!stdout.toString().endsWith("\n\n")) {
                AgentFrames.Frame f = AgentHarness.readAnswering(in, out, cli.dir());
                assertThat(f.type()).isEqualTo(AgentFrames.STDOUT);
                stdout.append(new String(f.payload(), StandardCharsets.UTF_8));
            }
            assertThat(stdout.toString())
                    .isEqualTo("                 4       gpu     wrap     root PD       0:00      1 (Priority)\n\n");
            byte[] sigint = AgentFrames.exitPayload(2);
            AgentFrames.write(out, AgentFrames.SIGNAL, sigint, 0, sigint.length);
            out.flush();
            AgentFrames.Frame last = AgentHarness.readAnswering(in, out, cli.dir());
            assertThat(last.type()).isEqualTo(AgentFrames.EXIT);
            assertThat(AgentFrames.intOf(last.payload())).isEqualTo(130);
        }
    }
}
