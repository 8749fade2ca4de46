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
 *
 * This file is the host's loop: it reads the requests, starts each job's Prolog, job and Epilog,
 * reaps them and writes the job's facts. What a request says of its job, and what the job's
 * process does between the fork and its exec, are in sluice-supervise-job.c; what the two share,
 * in sluice-supervise-host.h.
 */
#include "sluice-supervise-host.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

enum kind { PROLOG, JOB, EPILOG };

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

int main(int argc, char **argv) {
    if (argc < 3 || strcmp(argv[1], "--serve") != 0) {
        fprintf(stderr, "usage: sluice-supervise-host --serve SETSID:EXIT_GROUP [TOKEN]\n");
        return 2;
    }
    serve(argc > 3 ? argv[3] : "");
    return 0;
}
