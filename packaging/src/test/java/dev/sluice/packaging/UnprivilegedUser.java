package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real, unprivileged local user for the security tests: a passwd entry (so the daemons
 * resolve its name), its own uid and group, no supplementary groups, and a private working
 * directory. CI ({@code .ci/run}) creates {@code sluiceuser1} and {@code sluiceuser2}; a root
 * test run creates them when missing. Without root the tests that need one are skipped, except
 * under {@code CI=true}, where a skip would hide a hole.
 */
record UnprivilegedUser(String name, int uid, int gid, Path home) {
    static final String ATTACKER = "sluiceuser1";
    static final String VICTIM = "sluiceuser2";

    /** The user, created if root may; its working directory {@code dir/name}, 0700 and its own. */
    static UnprivilegedUser ensure(String name, Path dir) throws IOException, InterruptedException {
        boolean root = new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        if (!root && System.getenv("CI") != null) {
            throw new AssertionError("the security tests must run as root in CI, to act as real users");
        }
        assumeTrue(root, "acting as another user needs root");
        if (run("id", "-u", name).exit() != 0) {
            Result added = run("useradd", "--no-create-home", "--shell", "/bin/sh", name);
            assertThat(added.exit() == 0 || run("id", "-u", name).exit() == 0)
                    .as(added.err())
                    .isTrue();
        }
        int uid = Integer.parseInt(run("id", "-u", name).out().strip());
        int gid = Integer.parseInt(run("id", "-g", name).out().strip());
        Path home = dir.resolve(name);
        Files.createDirectories(home);
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        assertThat(run("chown", uid + ":" + gid, home.toString()).exit()).isZero();
        return new UnprivilegedUser(name, uid, gid, home);
    }

    record Result(int exit, String out, String err) {
        /** Everything the caller saw. */
        String all() {
            return out + err;
        }
    }

    /** {@code argv} as this user (its uid, its group, its groups alone), in its home, with exactly {@code env}. */
    Result run(Map<String, String> env, String... argv) throws IOException, InterruptedException {
        return in(home, env, argv);
    }

    Result in(Path cwd, Map<String, String> env, String... argv) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(
                List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--init-groups", "--reset-env", "--"));
        cmd.add("env");
        env.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.addAll(List.of(argv));
        return exec(new ProcessBuilder(cmd).directory(cwd.toFile()));
    }

    static Result run(String... command) throws IOException, InterruptedException {
        return exec(new ProcessBuilder(command));
    }

    private static Result exec(ProcessBuilder pb) throws IOException, InterruptedException {
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Path out = Files.createTempFile("sluice-user", ".out");
        Path err = Files.createTempFile("sluice-user", ".err");
        try {
            Process p =
                    pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(pb.command() + " did not finish");
            }
            return new Result(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.ISO_8859_1),
                    Files.readString(err, StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
