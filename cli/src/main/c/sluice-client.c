/*
 * sluice-client: the native front end of the Sluice user commands.
 *
 * Installed as (or called by) sbatch, squeue, sinfo, ...: it connects to the local
 * sluice-agent's Unix socket, sends argv, the environment and the working directory, relays
 * standard input when the command asks for it and the signals the user sends, writes what the
 * agent streams back to stdout/stderr, and exits with the command's status. The agent learns
 * who is calling from the socket's peer credentials; nothing sent here names a user.
 *
 * When no agent answers it runs the command in a JVM instead ($SLUICE_BIN/_sluice-java), so the
 * commands work, slower, wherever the agent is not running; so it does when the agent says it
 * will not serve this call (another slurm.conf than the agent's, one the caller cannot read).
 *
 * Everything that needs the caller's rights happens here, in the caller's own process: the agent
 * (root) asks this front end to open the files the caller named (a batch script, the target of
 * `scontrol write batch_script`) and to run local programs (`salloc CMD`), and gets back bytes,
 * an errno or a wait status. The agent never opens such a path itself. Protocol: docs/protocol.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#define DEFAULT_SOCKET "/run/sluice/agent.sock"
#define F_RUN 'R'
#define F_STDIN 'I'
#define F_SIGNAL 'S'
#define F_STDOUT 'O'
#define F_STDERR 'E'
#define F_EXIT 'X'
#define F_WANT_STDIN 'W'
#define F_FILE 'F'
#define F_PROCESS 'P'
#define F_ANSWER 'A'
#define F_FALLBACK 'J'
#define OP_READ 'r'
#define OP_WRITE 'w'
#define OP_APPEND 'a'
#define OP_CHECK_READABLE 'o'
#define CHUNK 65536
/* The most the agent may send in one request: a file to write (a batch script) or a program's argv and env. */
#define MAX_REQUEST (256u << 20)

extern char **environ;
static int signal_pipe[2] = {-1, -1};
static const char *command = "sluice-client";
/* $SLUICE_BIN as we were started with it: it is kept out of the environment sent to the agent. */
static char *sluice_bin;

struct buf {
    unsigned char *p;
    size_t len, cap;
};

static void die(const char *what) {
    fprintf(stderr, "%s: error: %s: %s\n", command, what, strerror(errno));
    exit(1);
}

static void grow(struct buf *b, size_t extra) {
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    unsigned char *p = realloc(b->p, cap);
    if (!p) die("out of memory");
    b->p = p;
    b->cap = cap;
}

static void put_u32(struct buf *b, uint32_t v) {
    grow(b, 4);
    b->p[b->len++] = (unsigned char)(v >> 24);
    b->p[b->len++] = (unsigned char)(v >> 16);
    b->p[b->len++] = (unsigned char)(v >> 8);
    b->p[b->len++] = (unsigned char)v;
}

static void put_str(struct buf *b, const char *s) {
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    grow(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static int write_all(int fd, const void *data, size_t n) {
    const unsigned char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *data, size_t n) {
    unsigned char *p = data;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (r == 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static int send_frame(int fd, int type, const void *payload, uint32_t n) {
    unsigned char h[5] = {(unsigned char)type, (unsigned char)(n >> 24), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 8), (unsigned char)n};
    if (write_all(fd, h, 5) < 0) return -1;
    return n ? write_all(fd, payload, n) : 0;
}

static void on_signal(int sig) {
    int saved = errno;
    unsigned char s = (unsigned char)sig;
    if (write(signal_pipe[1], &s, 1) < 0) { /* the pipe is full: the signal is already queued */ }
    errno = saved;
}

/*
 * Where _sluice-java is: $SLUICE_BIN; else beside the name we were called by (bin/sbatch as a
 * wrapper's target); else ../bin from the executable itself, so PREFIX/bin/sbatch may be a mere
 * link to PREFIX/libexec/sluice-client and still find PREFIX/bin/_sluice-java.
 */
static int find_launcher(char *launcher, size_t size, const char *argv0) {
    const char *bin = sluice_bin;
    if (bin && *bin) {
        return snprintf(launcher, size, "%s/_sluice-java", bin) < (int)size ? 0 : -1;
    }
    const char *slash = strrchr(argv0, '/');
    if (slash && snprintf(launcher, size, "%.*s/_sluice-java", (int)(slash - argv0), argv0) < (int)size &&
        access(launcher, X_OK) == 0) {
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    char *dir = strrchr(exe, '/');
    if (!dir) return -1;
    *dir = 0;
    return snprintf(launcher, size, "%s/../bin/_sluice-java", exe) < (int)size ? 0 : -1;
}

/* No agent: the same command in a JVM, with the same arguments. */
static void fallback(char **args, int nargs, const char *argv0) {
    signal(SIGPIPE, SIG_DFL);
    char launcher[PATH_MAX];
    if (find_launcher(launcher, sizeof launcher, argv0) < 0) {
        fprintf(stderr, "%s: error: sluice-agent is not running and SLUICE_BIN is not set\n", command);
        exit(1);
    }
    char **argv = calloc((size_t)nargs + 4, sizeof *argv);
    if (!argv) die("out of memory");
    argv[0] = launcher;
    argv[1] = "dev.sluice.cli.Main";
    argv[2] = (char *)command;
    for (int i = 0; i < nargs; i++) argv[3 + i] = args[i];
    unsetenv("SLUICE_BIN");
    execv(launcher, argv);
    fprintf(stderr, "%s: error: sluice-agent is not running and %s cannot be run: %s\n", command, launcher,
            strerror(errno));
    exit(1);
}

static int connect_agent(void) {
    const char *path = getenv("SLUICE_AGENT_SOCKET");
    if (!path || !*path) path = DEFAULT_SOCKET;
    if (getenv("SLUICE_NO_AGENT")) return -1;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof addr.sun_path) return -1;
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static uint32_t get_u32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void answer(int fd, uint32_t err, const void *data, size_t n) {
    struct buf b = {0};
    put_u32(&b, err);
    grow(&b, n);
    if (n) memcpy(b.p + b.len, data, n);
    b.len += n;
    if (send_frame(fd, F_ANSWER, b.p, (uint32_t)b.len) < 0) {
        fprintf(stderr, "%s: error: lost the connection to sluice-agent\n", command);
        exit(1);
    }
    free(b.p);
}

/* A request's payload, whole; bounded, since a broken agent must not make us allocate at will. */
static unsigned char *read_request(int fd, uint32_t n) {
    if (n > MAX_REQUEST) {
        fprintf(stderr, "%s: error: request of %u bytes from sluice-agent is too large\n", command, n);
        exit(1);
    }
    unsigned char *p = malloc(n + 1);
    if (!p) die("out of memory");
    if (read_all(fd, p, n) < 0) {
        fprintf(stderr, "%s: error: lost the connection to sluice-agent\n", command);
        exit(1);
    }
    p[n] = 0;
    return p;
}

/* Strings of a request: u32 length + bytes each, copied out NUL-terminated. Returns NULL when malformed. */
struct cursor {
    const unsigned char *p;
    size_t left;
};

static int take_u32(struct cursor *c, uint32_t *v) {
    if (c->left < 4) return -1;
    *v = get_u32(c->p);
    c->p += 4;
    c->left -= 4;
    return 0;
}

static char *take_str(struct cursor *c) {
    uint32_t n;
    if (take_u32(c, &n) < 0 || n > c->left) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) die("out of memory");
    memcpy(s, c->p, n);
    s[n] = 0;
    if (strlen(s) != n) { /* an embedded NUL: no such path or argument */
        free(s);
        return NULL;
    }
    c->p += n;
    c->left -= n;
    return s;
}

static char **take_strs(struct cursor *c) {
    uint32_t count;
    if (take_u32(c, &count) < 0 || count > c->left / 4) return NULL;
    char **v = calloc((size_t)count + 1, sizeof *v);
    if (!v) die("out of memory");
    for (uint32_t i = 0; i < count; i++) {
        if (!(v[i] = take_str(c))) return NULL;
    }
    return v;
}

/*
 * A file operation, done as ourselves: the caller's uid, groups and umask decide, as if the
 * command had run in the caller's own process (which this is).
 */
static void do_file(int fd, uint32_t n) {
    unsigned char *req = read_request(fd, n);
    struct cursor c = {req + 1, n ? n - 1 : 0};
    char *path = n ? take_str(&c) : NULL;
    if (!path) {
        answer(fd, EINVAL, NULL, 0);
        free(req);
        return;
    }
    int op = req[0];
    if (op == OP_READ) {
        uint32_t limit;
        int f = -1;
        struct stat st;
        if (take_u32(&c, &limit) < 0) {
            answer(fd, EINVAL, NULL, 0);
        } else if ((f = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0) {
            answer(fd, (uint32_t)errno, NULL, 0);
        } else if (fstat(f, &st) == 0 && S_ISDIR(st.st_mode)) {
            answer(fd, EISDIR, NULL, 0);
        } else {
            struct buf data = {0};
            int err = 0;
            for (;;) {
                grow(&data, CHUNK);
                ssize_t r = read(f, data.p + data.len, CHUNK);
                if (r < 0 && errno == EINTR) continue;
                if (r < 0) { err = errno; break; }
                if (r == 0) break;
                data.len += (size_t)r;
                if (data.len > limit) { err = EFBIG; break; }
            }
            if (err) answer(fd, (uint32_t)err, NULL, 0);
            else answer(fd, 0, data.p, data.len);
            free(data.p);
        }
        if (f >= 0) close(f);
    } else if (op == OP_WRITE || op == OP_APPEND) {
        int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | (op == OP_APPEND ? O_APPEND : O_TRUNC);
        int f = open(path, flags, 0666);
        int err = f < 0 ? errno : 0;
        if (!err && write_all(f, c.p, c.left) < 0) err = errno;
        if (f >= 0 && close(f) < 0 && !err) err = errno;
        answer(fd, (uint32_t)err, NULL, 0);
    } else if (op == OP_CHECK_READABLE) {
        /* O_NONBLOCK: a FIFO must not hang the check. */
        int f = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        answer(fd, f < 0 ? (uint32_t)errno : 0, NULL, 0);
        if (f >= 0) close(f);
    } else {
        answer(fd, EINVAL, NULL, 0);
    }
    free(path);
    free(req);
}

/*
 * A program run as ourselves on our own terminal (salloc's command): the agent waits for its
 * wait status. Signals the terminal sends meanwhile are the program's, not the command's.
 */
static void do_process(int fd, uint32_t n) {
    unsigned char *req = read_request(fd, n);
    struct cursor c = {req, n};
    char **argv = take_strs(&c);
    char **envp = argv ? take_strs(&c) : NULL;
    char *cwd = envp ? take_str(&c) : NULL;
    if (!cwd || !argv[0]) {
        answer(fd, EINVAL, NULL, 0);
        free(req);
        return;
    }
    int report[2];
    if (pipe2(report, O_CLOEXEC) < 0) die("pipe");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
        for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) signal(forwarded[i], SIG_DFL);
        close(report[0]);
        int e = 0;
        if (chdir(cwd) < 0) {
            e = errno;
        } else {
            environ = envp;
            execvp(argv[0], argv);
            e = errno;
        }
        if (write(report[1], &e, sizeof e) < 0) { /* the parent sees no report and a 127 */ }
        _exit(127);
    }
    close(report[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(report[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    close(report[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unsigned char s;
    while (read(signal_pipe[0], &s, 1) == 1) {
    }
    if (got == (ssize_t)sizeof e && e != 0) {
        answer(fd, (uint32_t)e, NULL, 0);
    } else {
        unsigned char v[4] = {(unsigned char)(status >> 24), (unsigned char)(status >> 16),
                              (unsigned char)(status >> 8), (unsigned char)status};
        answer(fd, 0, v, 4);
    }
    free(req);
}

/* Copies one frame's payload from the agent to an output descriptor, a chunk at a time. */
static void relay_payload(int fd, int out, uint32_t n) {
    static unsigned char chunk[CHUNK];
    while (n > 0) {
        uint32_t part = n < CHUNK ? n : CHUNK;
        if (read_all(fd, chunk, part) < 0) {
            fprintf(stderr, "%s: error: lost the connection to sluice-agent\n", command);
            exit(1);
        }
        /* A closed stdout (| head) must not stop us reading the exit status. */
        (void)write_all(out, chunk, part);
        n -= part;
    }
}

int main(int argc, char **argv) {
    const char *self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int first = 1;
    if (strcmp(self, "sluice-client") == 0) {
        if (argc < 2) {
            fprintf(stderr, "usage: sluice-client COMMAND [ARGS...]\n");
            return 1;
        }
        command = argv[1];
        first = 2;
    } else {
        command = self;
    }
    const char *bin = getenv("SLUICE_BIN");
    sluice_bin = bin ? strdup(bin) : NULL;
    int fd = connect_agent();
    if (fd < 0) fallback(argv + first, argc - first, argv[0]);
    unsetenv("SLUICE_BIN");

    /* As Slurm's sbatch and srun: the job is to create files with the submitter's umask, and
       learns the submitter's nice value (salloc's command runs here, with the caller's own). */
    int submits = !strcmp(command, "sbatch") || !strcmp(command, "srun");
    if (!getenv("SLURM_UMASK") && submits) {
        mode_t mask = umask(0);
        umask(mask);
        char value[8];
        snprintf(value, sizeof value, "0%o%o%o", (mask >> 6) & 7, (mask >> 3) & 7, mask & 7);
        setenv("SLURM_UMASK", value, 1);
    }
    if (!getenv("SLURM_PRIO_PROCESS") && submits) {
        char value[16];
        snprintf(value, sizeof value, "%d", getpriority(PRIO_PROCESS, 0));
        setenv("SLURM_PRIO_PROCESS", value, 1);
    }

    struct buf run = {0};
    put_u32(&run, (uint32_t)(argc - first + 1));
    put_str(&run, command);
    for (int i = first; i < argc; i++) put_str(&run, argv[i]);
    uint32_t envc = 0;
    for (char **e = environ; *e; e++) envc++;
    put_u32(&run, envc);
    for (char **e = environ; *e; e++) put_str(&run, *e);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) die("cannot read the working directory");
    put_str(&run, cwd);
    if (send_frame(fd, F_RUN, run.p, (uint32_t)run.len) < 0) die("cannot talk to sluice-agent");
    free(run.p);

    if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe");
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    /* SIGWINCH: the terminal changed size (srun --pty passes it on; other commands ignore it). */
    int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH};
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) sigaction(forwarded[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* Standard input is read only once the command asks for it: a command that never reads
     * it must not swallow the input of the shell loop that runs it. */
    int stdin_wanted = 0, stdin_open = 1;
    static unsigned char in[CHUNK];
    for (;;) {
        struct pollfd p[3] = {{.fd = fd, .events = POLLIN},
                              {.fd = signal_pipe[0], .events = POLLIN},
                              {.fd = stdin_wanted && stdin_open ? 0 : -1, .events = POLLIN}};
        if (poll(p, 3, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll");
        }
        if (p[1].revents & POLLIN) {
            unsigned char s;
            while (read(signal_pipe[0], &s, 1) == 1) {
                unsigned char v[4] = {0, 0, 0, s};
                if (send_frame(fd, F_SIGNAL, v, 4) < 0) break;
            }
        }
        if (p[2].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) {
            ssize_t n = p[2].revents & POLLNVAL ? 0 : read(0, in, sizeof in);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                stdin_open = 0;
                send_frame(fd, F_STDIN, NULL, 0);
            } else {
                send_frame(fd, F_STDIN, in, (uint32_t)n);
            }
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            unsigned char h[5];
            if (read_all(fd, h, 5) < 0) {
                fprintf(stderr, "%s: error: lost the connection to sluice-agent\n", command);
                return 1;
            }
            uint32_t n = ((uint32_t)h[1] << 24) | ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 8) | h[4];
            switch (h[0]) {
            case F_STDOUT: relay_payload(fd, 1, n); break;
            case F_STDERR: relay_payload(fd, 2, n); break;
            case F_WANT_STDIN:
                relay_payload(fd, -1, n);
                stdin_wanted = 1;
                break;
            case F_FILE: do_file(fd, n); break;
            case F_PROCESS: do_process(fd, n); break;
            case F_FALLBACK:
                close(fd);
                fallback(argv + first, argc - first, argv[0]);
                break;
            case F_EXIT: {
                unsigned char c[4];
                if (n != 4 || read_all(fd, c, 4) < 0) {
                    fprintf(stderr, "%s: error: bad exit status from sluice-agent\n", command);
                    return 1;
                }
                return (int)(((uint32_t)c[0] << 24) | ((uint32_t)c[1] << 16) | ((uint32_t)c[2] << 8) | c[3]);
            }
            default:
                fprintf(stderr, "%s: error: unexpected frame %d from sluice-agent\n", command, h[0]);
                return 1;
            }
        }
    }
}
