/*
 * sluice-supervise-host: the supervisor host of sluice-noded in C, built into the daemon's jar
 * where a C compiler is found at build time; sluice-supervise.pl --serve does the same in Perl
 * where this program is missing or does not run (Supervisor.java chooses).
 *
 *   sluice-supervise-host --serve SETSID:EXIT_GROUP [TOKEN]
 *
 * It is the parent of every job the daemon starts and carries out each job's life exactly as
 * the Perl host does (see sluice-supervise.pl, which says what each step is for): the same
 * requests on standard input (a length in decimal and a newline, then a lone supervisor's
 * arguments, each ended by a NUL), the same answers ("S KEY", "F", "X KEY"), the same facts in
 * the job's file of facts, the same steps in the job's process before its one exec. SETSID:EXIT_GROUP
 * is taken and ignored (the Perl host's system call numbers; C has both calls), so the daemon
 * starts either program the same way.
 *
 * Why it exists: the job's process is a fork of this host. A fork of a Perl interpreter, and the
 * Perl that runs in the child before its exec, write to pages the two share, each write a
 * copy-on-write fault; the process this program forks holds a few pages and writes few more
 * (docs/benchmarks.md, 2026-12-07 session 31).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum kind { PROLOG, JOB, EPILOG };

struct job {
    char *frame;            /* the request's bytes: every string below points into it */
    char *dir;
    char **cgroups;
    int ncgroups;
    char **user;            /* UID GID NAME ENVFILE GROUPS, or NULL */
    char **environment;     /* the job's NAME=VALUE records given in the request, or NULL: ENVFILE's */
    int nenvironment;
    char **io;              /* WORKDIR OUT ERR IN NODE APPEND, or NULL */
    char **args;            /* the request's arguments, NULL-terminated */
    char **command;         /* their tail after "--" */
    long key;
    pid_t pid;
    int ready, go;          /* the job's process's pipes, while it has not said it is ready */
    int awaiting, failed;
    struct job *next_awaiting;
};

struct kid {
    pid_t pid;
    struct job *job;
    enum kind kind;
    struct kid *next;
};

static struct kid *kids;
static struct job *awaiting;
static int answering = 1;
static int wake[2];

static void on_child(int sig) {
    (void) sig;
    int saved = errno;
    if (write(wake[1], "x", 1) < 0) {
        /* The pipe is full: select is woken already. */
    }
    errno = saved;
}

static int write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        s += w;
        n -= (size_t) w;
    }
    return 1;
}

static void answer(const char *line) {
    if (answering && !write_all(1, line, strlen(line)))
        answering = 0;
}

static char *path(const struct job *job, const char *name) {
    char *p;
    if (asprintf(&p, "%s/%s", job->dir, name) < 0)
        exit(1);
    return p;
}

/*
 * The job's facts are lines ("name=value") of one file, each appended by one write(2)
 * (JobFacts.java): its four writers (this host, Perl's, the shell supervisor, the daemon) never
 * overwrite one another, and a line a crash cut short, without its newline, does not count, so a
 * restarted daemon reads a fact whole or not at all. One file rather than a file per fact: each
 * new inode is the dearest part of a job's files.
 */
static void append_facts(const struct job *job, const char *lines, size_t length) {
    char file[4096];
    if ((size_t)snprintf(file, sizeof file, "%s/facts", job->dir) >= sizeof file)
        return;
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        write_all(fd, lines, length);
        close(fd);
    }
}

static void fact(const struct job *job, const char *name, const char *value) {
    char line[512];
    int n = snprintf(line, sizeof line, "%s=%s\n", name, value);
    if (n > 0 && (size_t)n < sizeof line)
        append_facts(job, line, (size_t)n);
}

static void fact_number(const struct job *job, const char *name, long value) {
    char text[32];
    snprintf(text, sizeof text, "%ld", value);
    fact(job, name, text);
}

/* Whether the fact was written: a whole line that begins with "name=". */
static int has_fact(const struct job *job, const char *name) {
    char file[4096];
    if ((size_t)snprintf(file, sizeof file, "%s/facts", job->dir) >= sizeof file)
        return 0;
    FILE *f = fopen(file, "re");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0, want = strlen(name);
    ssize_t n;
    int found = 0;
    while ((n = getline(&line, &cap, f)) > 0)
        if (line[n - 1] == '\n' && (size_t)n > want && memcmp(line, name, want) == 0 && line[want] == '=')
            found = 1;
    free(line);
    fclose(f);
    return found;
}

static int exists(const struct job *job, const char *name, int mode) {
    char *p = path(job, name);
    int ok = access(p, mode) == 0;
    free(p);
    return ok;
}

static void free_job(struct job *job) {
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
static struct job *parse(char *frame, size_t length) {
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
static int child(const struct job *job, int keep_a, int keep_b) {
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

/* Prolog and Epilog: root's, in a session of their own, with /dev/null for standard files. */
static int spawn(struct job *job, enum kind kind, const char *name) {
    char *program = path(job, name);
    pid_t pid = fork();
    if (pid < 0) {
        free(program);
        return 0;
    }
    if (pid == 0) {
        if (!child(job, -1, -1))
            _exit(126);
        setsid();
        execl(program, program, (char *) NULL);
        _exit(127);
    }
    free(program);
    struct kid *k = malloc(sizeof *k);
    if (!k)
        exit(1);
    *k = (struct kid) {pid, job, kind, kids};
    kids = k;
    return 1;
}

static void job_process(struct job *job, int ready, int go);

/* The job's process, with its two pipes to the host (sluice-supervise.pl's `start'). */
static int start(struct job *job) {
    int ready[2], go[2];
    if (pipe2(ready, O_CLOEXEC) != 0)
        return 0;
    if (pipe2(go, O_CLOEXEC) != 0) {
        close(ready[0]);
        close(ready[1]);
        return 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
        return 0;
    }
    if (pid == 0) {
        if (!child(job, ready[1], go[0])) {
            write_all(ready[1], "C", 1);
            _exit(1);
        }
        job_process(job, ready[1], go[0]);
    }
    close(ready[1]);
    close(go[0]);
    job->pid = pid;
    job->ready = ready[0];
    job->go = go[1];
    job->awaiting = 1;
    job->next_awaiting = awaiting;
    awaiting = job;
    struct kid *k = malloc(sizeof *k);
    if (!k)
        exit(1);
    *k = (struct kid) {pid, job, JOB, kids};
    kids = k;
    return 1;
}

/* The first step of a job's life: its Prolog, or the job itself. */
static int begin(struct job *job) {
    if (exists(job, "prolog", X_OK) && !has_fact(job, "prolog.done"))
        return spawn(job, PROLOG, "prolog");
    return start(job);
}

static void finish(struct job *job) {
    char line[40];
    fact(job, "supervisor.done", "");
    snprintf(line, sizeof line, "X %ld\n", job->key);
    answer(line);
    free_job(job);
}

/* The job's process is ready (or gone before it was): its pid is published and it is let go. */
static void published(struct job *job) {
    for (struct job **j = &awaiting; *j; j = &(*j)->next_awaiting)
        if (*j == job) {
            *j = job->next_awaiting;
            break;
        }
    job->awaiting = 0;
    char said;
    ssize_t got;
    do
        got = read(job->ready, &said, 1);
    while (got < 0 && errno == EINTR);
    close(job->ready);
    if (got == 1 && said == 'C') {
        job->failed = 1;
        close(job->go);
        return;
    }
    fact_number(job, "job.pid", job->pid);
    if (has_fact(job, "end_state")) {
        char *message = strdup("E");
        char *notice = path(job, "end_notice"), *claimed = path(job, "end_notice.claimed");
        if (rename(notice, claimed) == 0) {
            FILE *f = fopen(claimed, "re");
            if (f) {
                char buf[4096];
                size_t n;
                while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
                    size_t had = strlen(message);
                    message = realloc(message, had + n + 1);
                    memcpy(message + had, buf, n);
                    message[had + n] = '\0';
                }
                fclose(f);
            }
        }
        write_all(job->go, message, strlen(message));
        free(message), free(notice), free(claimed);
    }
    close(job->go);
}

/* One of a job's processes has ended: the next step of its life. */
static void reaped(pid_t pid, int status) {
    struct kid *k = NULL;
    for (struct kid **p = &kids; *p; p = &(*p)->next)
        if ((*p)->pid == pid) {
            k = *p;
            *p = k->next;
            break;
        }
    if (!k)
        return;
    struct job *job = k->job;
    enum kind kind = k->kind;
    free(k);
    int rc = (status & 127) ? 128 + (status & 127) : (status >> 8) & 0xff;
    if (kind == PROLOG) {
        if (rc != 0) {
            fact_number(job, "prolog.failed", rc);
            finish(job);
            return;
        }
        fact(job, "prolog.done", "");
        if (!start(job))
            finish(job);
        return;
    }
    if (kind == JOB) {
        if (job->awaiting)
            published(job);
        if (job->failed) {
            finish(job);
            return;
        }
        kill(-pid, SIGKILL);
        char lines[64];
        int n = snprintf(lines, sizeof lines, "wait_status=%d\nexit=%d\n", status, rc);
        append_facts(job, lines, (size_t)n);
        if (!exists(job, "epilog", X_OK) || !spawn(job, EPILOG, "epilog"))
            finish(job);
        return;
    }
    if (rc != 0)
        fact_number(job, "epilog.failed", rc);
    finish(job);
}

static void serve_request(char *frame, size_t length, const char *token) {
    static long key;
    struct job *job = parse(frame, length);
    if (!job) {
        free(frame);
        answer("F\n");
        return;
    }
    if (!begin(job)) {
        free_job(job);
        answer("F\n");
        return;
    }
    char line[40];
    job->key = ++key;
    char facts[512];
    int n = snprintf(facts, sizeof facts, "supervisor.host=%s\nsupervisor.pid=%ld\n", token, (long)getpid());
    if (n > 0 && (size_t)n < sizeof facts)
        append_facts(job, facts, (size_t)n);
    snprintf(line, sizeof line, "S %ld\n", job->key);
    answer(line);
}

/* Takes every whole request at the head of buf; returns how many bytes they held. */
static size_t requests(char *buf, size_t have, const char *token) {
    size_t used = 0;
    for (;;) {
        size_t digits = 0, length = 0;
        while (used + digits < have && buf[used + digits] >= '0' && buf[used + digits] <= '9') {
            length = length * 10 + (size_t) (buf[used + digits] - '0');
            digits++;
        }
        if (digits == 0 || used + digits >= have || buf[used + digits] != '\n')
            return used;
        size_t head = digits + 1;
        if (have - used - head < length)
            return used;
        char *frame = malloc(length + 1);
        if (!frame)
            exit(1);
        memcpy(frame, buf + used + head, length);
        frame[length] = '\0';
        used += head + length;
        serve_request(frame, length, token);
    }
}

static void serve(const char *token) {
    setsid();
    umask(077);
    signal(SIGPIPE, SIG_IGN);
    if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0)
        exit(1);
    struct sigaction sa = {0};
    sa.sa_handler = on_child;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    int open_input = 1;
    size_t cap = 65536, have = 0;
    char *buf = malloc(cap);
    struct pollfd *fds = NULL;
    struct job **polled = NULL;
    size_t fds_cap = 0;
    if (!buf)
        exit(1);
    while (open_input || kids) {
        int status;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
            reaped(pid, status);
        size_t n = 0, want = 2;
        for (struct job *j = awaiting; j; j = j->next_awaiting)
            want++;
        if (want > fds_cap) {
            fds_cap = want * 2;
            fds = realloc(fds, fds_cap * sizeof *fds);
            polled = realloc(polled, fds_cap * sizeof *polled);
            if (!fds || !polled)
                exit(1);
        }
        fds[n] = (struct pollfd) {wake[0], POLLIN, 0};
        polled[n++] = NULL;
        if (open_input) {
            fds[n] = (struct pollfd) {0, POLLIN, 0};
            polled[n++] = NULL;
        }
        for (struct job *j = awaiting; j; j = j->next_awaiting) {
            fds[n] = (struct pollfd) {j->ready, POLLIN, 0};
            polled[n++] = j;
        }
        if (poll(fds, n, 5000) <= 0)
            continue;
        if (fds[0].revents) {
            char drain[4096];
            while (read(wake[0], drain, sizeof drain) > 0) {
            }
        }
        for (size_t i = 0; i < n; i++)
            if (polled[i] && polled[i]->awaiting && fds[i].revents)
                published(polled[i]);
        if (!open_input || !fds[1].revents)
            continue;
        if (cap - have < 65536) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                exit(1);
        }
        ssize_t got = read(0, buf + have, 65536);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            open_input = 0;
            continue;
        }
        have += (size_t) got;
        size_t used = requests(buf, have, token);
        memmove(buf, buf + used, have - used);
        have -= used;
    }
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

static void job_process(struct job *job, int ready, int go) {
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

int main(int argc, char **argv) {
    if (argc < 3 || strcmp(argv[1], "--serve") != 0) {
        fprintf(stderr, "usage: sluice-supervise-host --serve SETSID:EXIT_GROUP [TOKEN]\n");
        return 2;
    }
    serve(argc > 3 ? argv[3] : "");
    return 0;
}
