/*
 * sluice-supervise-host.h: what the two files of the C supervisor host share.
 * sluice-supervise-host.c is the host's loop: it reads requests, starts each job's Prolog, job and
 * Epilog, reaps them and writes the job's facts. sluice-supervise-job.c is a job as its request
 * says it, and its process between the fork and its one exec.
 */
#ifndef SLUICE_SUPERVISE_HOST_H
#define SLUICE_SUPERVISE_HOST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>
#include <unistd.h>

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

static inline int write_all(int fd, const char *s, size_t n) {
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

/* In sluice-supervise-job.c: a request's job, or NULL where its arguments are not a job's. */
struct job *parse(char *frame, size_t length);
void free_job(struct job *job);

/*
 * What each process the host forks (Prolog, job, Epilog) does first: the host's descriptors
 * closed but keep_a and keep_b, /dev/null for standard files, the job's cgroups; 0 on failure.
 */
int child(const struct job *job, int keep_a, int keep_b);

/* The job's process, after child: its steps to the exec of the job's command; never returns. */
__attribute__((noreturn)) void job_process(struct job *job, int ready, int go);

#endif
