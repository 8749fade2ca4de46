/*
 * sluice-supervise-job.c: a job of the C supervisor host (sluice-supervise-host.c), as its
 * request says it, and what each of its processes does between the host's fork and its exec.
 */
#include "sluice-supervise-host.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

extern char **environ;

/* The job as its request says it (parse), and the request's bytes given back (free_job). */
void free_job(struct job *job) {
    free(job->frame);
    free(job->args);
    free(job);
}

/* An option's count N, then its N arguments, from argv[*at] on; 0 when they are not all there. */
static int counted(char **argv, int argc, int *at, char ***items, int *count) {
    if (*at >= argc)
        return 0;
    int n = atoi(argv[(*at)++]);
    if (n < 0 || *at + n > argc)
        return 0;
    *items = argv + *at;
    *count = n;
    *at += n;
    return 1;
}

/* A lone supervisor's arguments: JOBDIR SETSID:EXIT_GROUP [options] -- COMMAND... */
struct job *parse(char *frame, size_t length) {
    int argc = 0;
    for (size_t i = 0; i < length; i++)
        if (frame[i] == '\0')
            argc++;
    char **argv = calloc((size_t) argc + 1, sizeof *argv);
    struct job *job = calloc(1, sizeof *job);
    if (!argv || !job)
        exit(1);
    job->frame = frame;
    job->args = argv;
    for (size_t i = 0, start = 0, n = 0; i < length; i++)
        if (frame[i] == '\0') {
            argv[n++] = frame + start;
            start = i + 1;
        }
    int at = 2;
    if (argc < 2)
        goto bad;
    job->dir = argv[0];
    while (at < argc && strcmp(argv[at], "--") != 0) {
        const char *option = argv[at++];
        if (strcmp(option, "--cgroup") == 0) {
            if (!counted(argv, argc, &at, &job->cgroups, &job->ncgroups))
                goto bad;
        } else if (strcmp(option, "--user") == 0 && at + 5 <= argc) {
            job->user = argv + at;
            at += 5;
        } else if (strcmp(option, "--io") == 0 && at + 6 <= argc) {
            job->io = argv + at;
            at += 6;
        } else if (strcmp(option, "--environment") == 0) {
            if (!counted(argv, argc, &at, &job->environment, &job->nenvironment))
                goto bad;
        } else {
            goto bad;
        }
    }
    at++;
    if (at >= argc)
        goto bad;
    job->command = argv + at;
    return job;
bad:
    free(argv);
    free(job);
    return NULL;
}

/* close_range(2) (Linux 5.9), called by its number: glibc has a wrapper only since 2.34. */
static int close_fds(unsigned from, unsigned to) {
#ifdef SYS_close_range
    return (int) syscall(SYS_close_range, from, to, 0);
#else
    (void) from, (void) to;
    errno = ENOSYS;
    return -1;
#endif
}

/* Closes every descriptor from 3 on but keep_a and keep_b (-1: none). */
static void close_others(int keep_a, int keep_b) {
    int keep[2] = {keep_a < keep_b ? keep_a : keep_b, keep_a < keep_b ? keep_b : keep_a};
    int from = 3, ok = 1;
    for (int i = 0; i < 2 && ok; i++) {
        if (keep[i] < from)
            continue;
        if (keep[i] > from)
            ok = close_fds((unsigned) from, (unsigned) keep[i] - 1) == 0;
        from = keep[i] + 1;
    }
    if (ok && close_fds((unsigned) from, ~0U) == 0)
        return;
    /* Without close_range: the descriptors open, as /proc lists them. */
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        for (int fd = 3; fd < 1024; fd++)
            if (fd != keep_a && fd != keep_b)
                close(fd);
        return;
    }
    int own = dirfd(d), fds[1024];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < sizeof fds / sizeof *fds) {
        int fd = atoi(e->d_name);
        if (fd >= 3 && fd != own && fd != keep_a && fd != keep_b)
            fds[n++] = fd;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        close(fds[i]);
}

static int join_cgroup(const char *dir) {
    char *p, line[32];
    if (asprintf(&p, "%s/cgroup.procs", dir) < 0)
        return 0;
    int fd = open(p, O_WRONLY | O_APPEND | O_CREAT, 0666);
    free(p);
    if (fd < 0)
        return 0;
    snprintf(line, sizeof line, "%d\n", (int) getpid());
    int ok = write_all(fd, line, strlen(line));
    return close(fd) == 0 && ok;
}

/*
 * What each of a job's processes does first: nothing of the host's (its pipes to the daemon, its
 * handlers, other jobs' pipes), /dev/null for standard files, then the job's cgroups.
 */
int child(const struct job *job, int keep_a, int keep_b) {
    signal(SIGCHLD, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
    if (in < 0 || out < 0)
        return 0;
    /* Both are 3 or above: 0, 1 and 2 are open in the host. */
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    close_others(keep_a, keep_b);
    for (int i = 0; i < job->ncgroups; i++)
        if (!join_cgroup(job->cgroups[i]))
            return 0;
    return 1;
}

/*
 * The job's process, before it becomes the job's command with one exec (sluice-supervise.pl's
 * `job', step for step): its own session; the user's identity; the job's environment (the
 * request's --environment records, or ENVFILE read as the user); the umask, working directory and standard files; its pid published through `ready',
 * and the host's word through `go'.
 */
static char **job_environment(const char *file);
static char **records_environment(char **records, size_t count);
static char **environment_without(char **env, const char *name, char **value);
static int environment_has(char **env, const char *name);

void job_process(struct job *job, int ready, int go) {
    char **env = environ;
    setsid();
    if (job->user) {
        uid_t uid = (uid_t) strtoul(job->user[0], NULL, 10);
        gid_t gid = (gid_t) strtoul(job->user[1], NULL, 10);
        if (uid != getuid()) {
            /* The daemon's getgrouplist(3); the group file only where it could not ask. */
            int ngroups = 1;
            for (const char *c = job->user[4]; *c; c++)
                ngroups += *c == ',';
            gid_t *groups = calloc((size_t) ngroups + 1, sizeof *groups);
            if (!groups)
                _exit(1);
            if (*job->user[4]) {
                char *s = job->user[4], *end;
                ngroups = 0;
                while (*s) {
                    groups[ngroups++] = (gid_t) strtoul(s, &end, 10);
                    s = *end == ',' ? end + 1 : end + strlen(end);
                }
                setgroups((size_t) ngroups, groups);
            } else {
                initgroups(job->user[2], gid);
            }
            setresgid(gid, gid, gid);
            setresuid(uid, uid, uid);
            uid_t r, e, s;
            gid_t rg, eg, sg;
            getresuid(&r, &e, &s);
            getresgid(&rg, &eg, &sg);
            if (r != uid || e != uid || rg != gid || eg != gid) {
                dprintf(2, "slurmstepd: error: cannot become uid %u gid %u\n", uid, gid);
                _exit(1);
            }
        }
        env = job->environment ? records_environment(job->environment, (size_t) job->nenvironment)
                               : job_environment(job->user[3]);
    }
    if (job->io) {
        const char *w = job->io[0], *o = job->io[1], *e = job->io[2], *i = job->io[3], *node = job->io[4];
        char *mask = NULL;
        env = environment_without(env, "SLURM_UMASK", &mask);
        mode_t umask_value = 022;
        if (mask && strlen(mask) >= 1 && strlen(mask) <= 4 && strspn(mask, "01234567") == strlen(mask))
            umask_value = (mode_t) strtoul(mask, NULL, 8);
        umask(umask_value);
        const char *nowd = NULL;
        if (chdir(w) != 0) {
            struct stat st;
            nowd = stat(w, &st) != 0 ? "No such file or directory"
                    : !S_ISDIR(st.st_mode) ? "Not a directory" : "Permission denied";
            if (chdir("/tmp") != 0) {
                /* As the Perl host: the job runs where it is. */
            }
        }
        if (environment_has(env, "PWD")) {
            char *pwd, *ignored;
            if (asprintf(&pwd, "PWD=%s", nowd ? "/tmp" : w) < 0)
                _exit(1);
            env = environment_without(env, "PWD", &ignored);
            size_t count = 0;
            while (env[count])
                count++;
            env = realloc(env, (count + 2) * sizeof *env);
            env[count] = pwd;
            env[count + 1] = NULL;
        }
        int ok = 1, fd;
        if (strcmp(job->io[5], "1") != 0) {
            ok = (fd = open(o, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) >= 0 && close(fd) == 0;
            if (ok && strcmp(e, o) != 0)
                ok = (fd = open(e, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) >= 0 && close(fd) == 0;
        }
        ok = ok && (fd = open(i, O_RDONLY)) >= 0 && dup2(fd, 0) == 0 && (fd == 0 || close(fd) == 0);
        ok = ok && (fd = open(o, O_WRONLY | O_APPEND | O_CREAT, 0666)) >= 0 && dup2(fd, 1) == 1
                && (fd == 1 || close(fd) == 0);
        if (ok && strcmp(e, o) == 0)
            ok = dup2(1, 2) == 2;
        else if (ok)
            ok = (fd = open(e, O_WRONLY | O_APPEND | O_CREAT, 0666)) >= 0 && dup2(fd, 2) == 2
                    && (fd == 2 || close(fd) == 0);
        if (!ok) {
            kill(getpid(), 53);
            _exit(1);
        }
        if (nowd) {
            for (int twice = 0; twice < 2; twice++)
                dprintf(2, "slurmstepd-%s: error: couldn't chdir to `%s': %s: going to /tmp instead\n", node, w, nowd);
        }
    }
    close(ready);
    char *message = NULL;
    size_t length = 0;
    for (;;) {
        char part[4096];
        ssize_t got = read(go, part, sizeof part);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        message = realloc(message, length + (size_t) got);
        memcpy(message + length, part, (size_t) got);
        length += (size_t) got;
    }
    close(go);
    if (length > 0) {
        write_all(2, message + 1, length - 1);
        /* Even where the daemon was started with SIGTERM ignored: the job dies of it, as Slurm's. */
        signal(SIGTERM, SIG_DFL);
        kill(getpid(), SIGTERM);
        _exit(1);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    environ = env;
    execvp(job->command[0], job->command);
    int error = errno;
    dprintf(2, "slurmstepd: error: execve(): %s: %s\n", job->command[0], strerror(error));
    _exit(error ? error : 255);
}

/* The job's environment file, NUL-separated NAME=VALUE, read as the user; a later name wins. */
static char **job_environment(const char *file) {
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        _exit(errno ? errno : 255);
    size_t cap = 16384, have = 0;
    char *text = malloc(cap + 1);
    for (;;) {
        if (!text)
            _exit(1);
        ssize_t got = read(fd, text + have, cap - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        have += (size_t) got;
        if (have == cap)
            text = realloc(text, (cap *= 2) + 1);
    }
    close(fd);
    text[have] = '\0';
    size_t entries = 0;
    for (size_t i = 0; i <= have; i++)
        entries += text[i] == '\0';
    char **records = calloc(entries + 1, sizeof *records);
    if (!records)
        _exit(1);
    size_t count = 0;
    for (char *e = text; e < text + have; e += strlen(e) + 1)
        records[count++] = e;
    return records_environment(records, count);
}

/* The environment of NAME=VALUE records: a later name wins, a record without a name is left out. */
static char **records_environment(char **records, size_t count) {
    char **env = calloc(count + 1, sizeof *env);
    if (!env)
        _exit(1);
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        char *e = records[i];
        char *eq = strchr(e, '=');
        if (!eq || eq == e)
            continue;
        size_t name = (size_t) (eq - e) + 1;
        size_t j = 0;
        while (j < n && strncmp(env[j], e, name) != 0)
            j++;
        env[j] = e;
        if (j == n)
            n++;
    }
    env[n] = NULL;
    return env;
}

static int environment_has(char **env, const char *name) {
    size_t len = strlen(name);
    for (char **e = env; *e; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return 1;
    return 0;
}

/* A copy of env without NAME; *value is what it held, or NULL. */
static char **environment_without(char **env, const char *name, char **value) {
    size_t len = strlen(name), count = 0, n = 0;
    while (env[count])
        count++;
    char **out = calloc(count + 1, sizeof *out);
    if (!out)
        _exit(1);
    *value = NULL;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(env[i], name, len) == 0 && env[i][len] == '=')
            *value = env[i] + len + 1;
        else
            out[n++] = env[i];
    }
    out[n] = NULL;
    return out;
}
