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
 * commands work, slower, wherever the agent is not running. Protocol: docs/protocol.md.
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
#include <sys/socket.h>
#include <sys/un.h>
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
#define CHUNK 65536

extern char **environ;
static int signal_pipe[2] = {-1, -1};
static const char *command = "sluice-client";

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
    const char *bin = getenv("SLUICE_BIN");
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
    int fd = connect_agent();
    if (fd < 0) fallback(argv + first, argc - first, argv[0]);
    unsetenv("SLUICE_BIN");

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
    int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
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
