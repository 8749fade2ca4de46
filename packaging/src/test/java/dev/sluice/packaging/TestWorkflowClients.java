package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Slurm clients, unchanged, against a local Sluice cluster: the workflow tools Debian
 * packages (snakemake, batchtools, rslurm, toil, ipyparallel), each running a small workflow
 * with its own Slurm support and default options, calling {@code sbatch}, {@code squeue},
 * {@code sacct}, ... by name from PATH as on a login node. Each test checks the workflow's
 * results, that every piece ran as a Slurm job of its own, and that {@code sacct} agrees.
 *
 * <p>A client that is not installed is skipped, except under {@code CI=true}: {@code .ci/run}
 * installs them all, and there a skip would hide a regression.
 */
class TestWorkflowClients {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = ClusterProcesses.withAccounting(stateDir, 2, 4);
        // Toil waits 1.2 x max(SchedulerTimeSlice, AcctGatherNodeFreq) of `scontrol show config`
        // between polls: Slurm's default 30 s would make its three rounds take two minutes. The
        // smallest value Slurm accepts keeps the test short; Toil's own options stay the defaults.
        cluster.editSlurmConf(conf -> conf + "SchedulerTimeSlice=5\n");
        try {
            // A cluster with accounting starts slowly on a busy machine (the database's migrations).
            cluster.start(Duration.ofSeconds(180));
            cluster.clientEnv();
        } catch (RuntimeException e) {
            throw new AssertionError("the cluster did not start:\n" + cluster.logs(), e);
        }
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    // ---- snakemake -----------------------------------------------------------------------

    @Test
    void snakemakeRunsEachRuleAsItsOwnJob() throws Exception {
        requireClient("snakemake", "snakemake", "--version");
        Path dir = workflowDir("snakemake", "Snakefile");
        // Snakemake's --slurm executor polls sacct every 1/0.03 s (33 s) unless told a rate of at
        // most 1 per second; that is the only option given besides the executor and -j.
        ClusterProcesses.Result run = client(
                dir, "snakemake", "--slurm", "-j", "2", "--max-status-checks-per-second", "1", "--latency-wait", "5");
        assertThat(run.exitCode()).as(run.out()).isZero();

        List<String> joined = Files.readAllLines(dir.resolve("joined.txt"));
        assertThat(joined).hasSize(3);
        Map<String, String> jobOfRule = new LinkedHashMap<>();
        for (String rule : List.of("a", "b", "join")) {
            try (Stream<Path> logs = Files.list(dir.resolve(".snakemake/slurm_logs/rule_" + rule))) {
                List<String> ids = logs.map(p -> p.getFileName().toString().replace(".log", ""))
                        .toList();
                assertThat(ids).as("rule %s ran as one Slurm job", rule).hasSize(1);
                jobOfRule.put(rule, ids.get(0));
            }
        }
        assertThat(jobOfRule.values()).doesNotHaveDuplicates();
        assertThat(joined)
                .containsExactly(
                        "A from " + jobOfRule.get("a"),
                        "B from " + jobOfRule.get("b"),
                        "join from " + jobOfRule.get("join"));
        // Inside each job snakemake runs the rule through `srun -n1 --cpu-bind=q`: step 0.
        Map<String, SacctRow> rows = sacct("-j", String.join(",", jobOfRule.values()));
        for (var e : jobOfRule.entrySet()) {
            String id = e.getValue();
            assertThat(rows.get(id).name()).as(rows.toString()).startsWith("snakejob_" + e.getKey() + "_");
            assertThat(rows.get(id).state()).as(rows.toString()).isEqualTo("COMPLETED");
            assertThat(rows.get(id + ".batch")).isEqualTo(new SacctRow(id + ".batch", "batch", "COMPLETED"));
            assertThat(rows.get(id + ".0")).isEqualTo(new SacctRow(id + ".0", "python3", "COMPLETED"));
        }
    }

    @Test
    void snakemakeChecksAGivenAccountWithSacctmgr() throws Exception {
        requireClient("snakemake", "snakemake", "--version");
        Path dir = workflowDir("snakemake-account", "Snakefile");
        ClusterProcesses.Result run = client(
                dir,
                "snakemake",
                "--slurm",
                "-j",
                "2",
                "--max-status-checks-per-second",
                "1",
                "--latency-wait",
                "5",
                "--default-resources",
                "slurm_account=root");
        assertThat(run.exitCode()).as(run.out()).isZero();
        assertThat(Files.readAllLines(dir.resolve("joined.txt"))).hasSize(3);
        List<String> ids = new ArrayList<>();
        for (String rule : List.of("a", "b", "join")) {
            try (Stream<Path> logs = Files.list(dir.resolve(".snakemake/slurm_logs/rule_" + rule))) {
                logs.forEach(p -> ids.add(p.getFileName().toString().replace(".log", "")));
            }
        }
        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        // Each job was submitted with -A root, and accounting says so.
        ClusterProcesses.Result sacct = awaitCommand(
                r -> ids.stream().allMatch(id -> r.out().contains(id + "|root|COMPLETED")),
                "sacct",
                "-n",
                "-P",
                "-X",
                "-o",
                "JobID,Account,State",
                "-j",
                String.join(",", ids));
        assertThat(sacct.out().lines()).hasSize(3);
    }

    // ---- batchtools (R) ------------------------------------------------------------------

    @Test
    void batchtoolsRunsAnArrayAndKillsOne() throws Exception {
        requireClient("R package batchtools", "Rscript", "-e", "library(batchtools)");
        Path dir = workflowDir("batchtools", "batchtools.R");
        ClusterProcesses.Result run = client(dir, "Rscript", "batchtools.R");
        assertThat(run.exitCode()).as(run.out()).isZero();
        String out = run.out();

        List<String> batchIds = words(out, "BATCH_IDS");
        assertThat(batchIds).hasSize(3);
        String array = batchIds.get(0).replaceAll("_.*", "");
        assertThat(batchIds).containsExactly(array + "_1", array + "_2", array + "_3");
        assertThat(words(out, "RESULTS")).containsExactly("1", "4", "9");
        // Each task's log (the template's --output=...log_%a) holds that task's own line.
        for (int i = 1; i <= 3; i++) {
            assertThat(out).containsPattern("(?m)^LOG " + i + " task " + i + " on \\d+");
        }
        List<String> taskJobIds = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^LOG \\d task \\d on (\\d+)").matcher(out);
        while (m.find()) {
            taskJobIds.add(m.group(1));
        }
        assertThat(taskJobIds).as("each array task is a job of its own").doesNotHaveDuplicates();

        List<String> killIds = words(out, "KILL_IDS");
        assertThat(killIds).hasSize(2);
        assertThat(words(out, "RUNNING")).containsExactly("2");
        assertThat(words(out, "KILLED")).containsExactly("TRUE", "TRUE");
        assertThat(words(out, "STILL_RUNNING")).containsExactly("0");

        Map<String, SacctRow> rows =
                sacct("-X", "-j", array + "," + killIds.get(0).replaceAll("_.*", ""));
        assertThat(rows.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        Stream.concat(batchIds.stream(), killIds.stream()).toList());
        for (String id : batchIds) {
            assertThat(rows.get(id).state()).as(rows.toString()).isEqualTo("COMPLETED");
        }
        for (String id : killIds) {
            assertThat(rows.get(id).state()).as(rows.toString()).isEqualTo("CANCELLED by 0");
        }
    }

    // ---- rslurm (R) ----------------------------------------------------------------------

    @Test
    void rslurmAppliesOverAnArrayAndCancelsOne() throws Exception {
        requireClient("R package rslurm", "Rscript", "-e", "library(rslurm)");
        Path dir = workflowDir("rslurm", "rslurm.R");
        ClusterProcesses.Result run = client(dir, "Rscript", "rslurm.R");
        assertThat(run.exitCode()).as(run.out()).isZero();
        String out = run.out();

        String job = words(out, "JOBID").get(0);
        assertThat(words(out, "RESULTS")).containsExactly("10", "20", "30", "40");
        assertThat(words(out, "COMPLETED")).containsExactly("TRUE");
        Matcher log0 = Pattern.compile("(?m)^LOG slurm_0\\.out task 1 on (\\d+)  \\| task 2 on \\1")
                .matcher(out);
        Matcher log1 = Pattern.compile("(?m)^LOG slurm_1\\.out task 3 on (\\d+)  \\| task 4 on \\1")
                .matcher(out);
        assertThat(log0.find()).as(out).isTrue();
        assertThat(log1.find()).as(out).isTrue();
        assertThat(log0.group(1)).as("each array task is a job of its own").isNotEqualTo(log1.group(1));

        String cancelled = words(out, "CANCEL_JOBID").get(0);
        assertThat(words(out, "QUEUED")).containsExactly("2");
        assertThat(words(out, "CANCELLED")).containsExactly("TRUE");

        Map<String, SacctRow> rows = sacct("-X", "-j", job + "," + cancelled);
        assertThat(rows.values())
                .containsExactlyInAnyOrder(
                        new SacctRow(job + "_0", "squares", "COMPLETED"),
                        new SacctRow(job + "_1", "squares", "COMPLETED"),
                        new SacctRow(cancelled + "_0", "sleepers", "CANCELLED by 0"),
                        new SacctRow(cancelled + "_1", "sleepers", "CANCELLED by 0"));
        // get_slurm_out waited with a job of the same name, --dependency=singleton --wait.
        Map<String, SacctRow> waited = sacct("-X", "--name=squares");
        assertThat(waited.values()).hasSize(3).allMatch(r -> r.state().equals("COMPLETED"));
    }

    // ---- toil ----------------------------------------------------------------------------

    @Test
    void toilRunsEachJobOnSlurm() throws Exception {
        requireClient("toil", "/usr/bin/python3", "-c", "import toil.batchSystems.slurm");
        Path dir = workflowDir("toil", "toil_workflow.py");
        ClusterProcesses.Result run =
                client(dir, "/usr/bin/python3", "toil_workflow.py", "./jobstore", "--batchSystem", "slurm");
        assertThat(run.exitCode()).as(run.out()).isZero();
        assertThat(run.out()).contains("RESULT 25\n").contains("Finished toil run successfully");

        // Toil names each job toil_job_<its own id>_<name>; this Toil (5.9) gives them all the name None.
        Map<String, SacctRow> rows = sacct(
                "-X", "-S", "1970-01-01", "--name=toil_job_0_None,toil_job_1_None,toil_job_2_None,toil_job_3_None");
        assertThat(rows.values().stream().map(SacctRow::name))
                .as(rows.toString())
                .containsExactlyInAnyOrder("toil_job_0_None", "toil_job_1_None", "toil_job_2_None", "toil_job_3_None");
        assertThat(rows.values()).allMatch(r -> r.state().equals("COMPLETED"), "COMPLETED");
    }

    // ---- ipyparallel ---------------------------------------------------------------------

    @Test
    void ipyparallelStartsTwoEnginesThroughSrun() throws Exception {
        requireClient("ipyparallel", "/usr/bin/python3", "-c", "import ipyparallel");
        Path dir = workflowDir("ipyparallel", "ipyparallel_engines.py");
        ClusterProcesses.Result run = client(
                dir,
                Map.of("IPYTHONDIR", dir.resolve("ipython").toString()),
                "/usr/bin/python3",
                "ipyparallel_engines.py");
        assertThat(run.exitCode()).as(run.out()).isZero();
        String out = run.out();
        assertThat(words(out, "ENGINES")).containsExactly("2");
        assertThat(words(out, "SQUARES")).containsExactly("0", "1", "4", "9", "16", "25");
        List<String> jobs = words(out, "JOBS");
        assertThat(jobs).hasSize(1);
        String job = jobs.get(0);
        // One engine job; its two engines are the two tasks of one srun step.
        assertThat(words(out, "WHERE")).containsExactly(job + ".0/0", job + ".0/1");
        Map<String, SacctRow> rows = sacct("-j", job);
        assertThat(rows.get(job).name()).as(rows.toString()).startsWith("ipy-engine-");
        assertThat(rows.get(job).state()).as(rows.toString()).isEqualTo("COMPLETED");
        assertThat(rows.get(job + ".batch")).isEqualTo(new SacctRow(job + ".batch", "batch", "COMPLETED"));
        assertThat(rows.get(job + ".0")).isEqualTo(new SacctRow(job + ".0", "python3", "COMPLETED"));
        ClusterProcesses.Result steps = cluster.command("sacct", "-n", "-P", "-o", "JobID,NTasks", "-j", job);
        assertThat(steps.out()).contains(job + ".0|2\n");
    }

    // ---- helpers -------------------------------------------------------------------------

    /**
     * The client must be installed: without it the test is skipped, except under CI, where
     * {@code .ci/run} installs it and its absence is a failure.
     */
    private static void requireClient(String what, String... probe) throws Exception {
        boolean present;
        try {
            Process p = new ProcessBuilder(probe)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            present = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            present = false;
        }
        if (!present && System.getenv("CI") != null) {
            throw new AssertionError(what + " is not installed; .ci/run installs it (Debian package)");
        }
        assumeTrue(present, what + " is not installed (Debian: see .ci/run)");
    }

    /** A fresh directory for one workflow, with its files from the test resources. */
    private static Path workflowDir(String name, String... resources) throws IOException {
        Path dir = Files.createDirectories(cluster.workDir().resolve(name));
        for (String resource : resources) {
            try (InputStream in = TestWorkflowClients.class.getResourceAsStream("/clients/" + resource)) {
                Files.copy(in, dir.resolve(resource));
            }
        }
        return dir;
    }

    private static ClusterProcesses.Result client(Path dir, String... argv) throws Exception {
        return client(dir, Map.of(), argv);
    }

    private static ClusterProcesses.Result client(Path dir, Map<String, String> extra, String... argv)
            throws Exception {
        Map<String, String> env = new LinkedHashMap<>(extra);
        // A login shell's variables that the clients read (snakemake and batchtools: $USER).
        env.put("USER", System.getProperty("user.name"));
        env.putIfAbsent("HOME", dir.toString());
        ClusterProcesses.Result run = cluster.client(dir, env, Duration.ofSeconds(150), argv);
        noOptionRefused(dir, run);
        return run;
    }

    /** getopt's and Slurm's words for a refused option or value, in any command's output. */
    private static final Pattern REFUSED =
            Pattern.compile("unrecognized option|invalid option|option '[^']*' is ambiguous|Try \"\\w+ --help\"");

    /**
     * The clients' call logs (their own output, their log files and the jobs' output files under
     * the workflow's directory) show no option of a Slurm command refused.
     */
    private static void noOptionRefused(Path dir, ClusterProcesses.Result run) throws IOException {
        List<String> hits = new ArrayList<>();
        Stream.of(run.out(), run.err())
                .flatMap(String::lines)
                .filter(l -> REFUSED.matcher(l).find())
                .forEach(l -> hits.add("(client) " + l));
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (Files.size(f) > (1 << 20)) {
                    continue;
                }
                String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
                text.lines()
                        .filter(l -> REFUSED.matcher(l).find())
                        .forEach(l -> hits.add(dir.relativize(f) + ": " + l));
            }
        }
        assertThat(hits).as("options refused in the clients' call logs").isEmpty();
    }

    /** The words after {@code key} on the line that starts with it. */
    private static List<String> words(String out, String key) {
        Matcher m = Pattern.compile("(?m)^" + key + " (.*)$").matcher(out);
        assertThat(m.find()).as("a line %s in:\n%s", key, out).isTrue();
        return Arrays.stream(m.group(1).strip().split("\\s+")).toList();
    }

    /** One line of {@code sacct -P -o JobID,JobName,State}. */
    record SacctRow(String id, String name, String state) {}

    /**
     * sacct's records (allocations and steps) selected by {@code selection} (e.g. {@code -j 3,4}),
     * once there are some and none is still pending or running; keyed by JobID.
     */
    private static Map<String, SacctRow> sacct(String... selection) {
        List<String> args = new ArrayList<>(List.of("-n", "-P", "-o", "JobID,JobName,State"));
        args.addAll(List.of(selection));
        ClusterProcesses.Result r = awaitCommand(
                res -> !res.out().isBlank()
                        && res.out().lines().noneMatch(l -> l.endsWith("|RUNNING") || l.endsWith("|PENDING")),
                "sacct",
                args.toArray(String[]::new));
        Map<String, SacctRow> rows = new LinkedHashMap<>();
        for (String line : r.out().lines().toList()) {
            String[] f = line.split("\\|", -1);
            assertThat(f).as(line).hasSize(3);
            rows.put(f[0], new SacctRow(f[0], f[1], f[2]));
        }
        return rows;
    }

    private static ClusterProcesses.Result awaitCommand(
            java.util.function.Predicate<ClusterProcesses.Result> done, String name, String... args) {
        ClusterProcesses.Result[] last = new ClusterProcesses.Result[1];
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    last[0] = cluster.client(cluster.workDir(), Map.of(), Duration.ofSeconds(30), prepend(name, args));
                    return last[0].exitCode() == 0 && done.test(last[0]);
                });
        return last[0];
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
