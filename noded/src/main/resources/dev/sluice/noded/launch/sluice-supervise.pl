# sluice job supervisor: written by sluice-noded into its spool, run by it as root (Supervisor.java):
#   perl -t sluice-supervise.pl JOBDIR SETSID:EXIT_GROUP [--cgroup N DIR...] [--user UID GID NAME ENVFILE]
#        [--io WORKDIR OUT ERR IN NODE APPEND] -- COMMAND...
# --cgroup: it first puts itself into each DIR (cgroup.procs), so Prolog, job and Epilog run there;
# exit 126 when it cannot, as the shell joiner did.
# One process per job beside the job itself: it leads a session of its own, runs the node's
# Prolog once (prolog.done), forks the job, records its pid (job.pid) once the job leads its own
# session and has opened its files, ends it at once if sluice-noded already asked to, waits for it with
# waitpid(2) and records its exact wait status (wait_status) and the shell's form of it (exit),
# kills what the job left in its session, runs the Epilog and exits. Facts are written then
# renamed, so a restarted sluice-noded reads whole files or none. The job's child, before it
# becomes COMMAND with one exec: its own session; the user's identity (--user: groups, gid,
# uid, real, effective and saved); the job's environment, read from ENVFILE as the user; the
# user's umask (SLURM_UMASK); the working directory, or /tmp; its standard files, opened as
# the user (--io: truncated unless APPEND is 1, then opened for appending; failing that, the
# job ends by signal 53, Slurm's JobLaunchFailure); SIGINT and SIGQUIT at their defaults.
# SETSID is setsid(2)'s system call number here, or 0 for POSIX::setsid; EXIT_GROUP exit_group(2)'s,
# or 0 for Perl's exit: ending by the system call skips tearing the interpreter down, which in a
# supervisor forked by the host copies the pages it shares with it. No module is loaded
# otherwise (the node image may carry perl-base alone). -t: Perl ignores PERL5OPT and PERL5LIB.
$SIG{__WARN__} = sub {};
my ($dir, $setsid, $exit_group, @cgroups, @user, @io);
if (@ARGV == 1 && $ARGV[0] eq '--serve') {
    serve();
    exit 0;
}
supervise(@ARGV);

# The supervisor host: one long-lived process per node daemon that forks a supervisor per request,
# so that a job costs a fork here instead of a new interpreter. A request is its length in
# decimal and a newline, then the supervisor's arguments, each ended by a NUL. Answers, one line
# each, in order: "S PID" (forked) or "F" (fork failed); between them "X PID STATUS" as each
# supervisor ends. At the end of its input (the daemon is gone) it exits and leaves its
# supervisors running: they are the daemon's observed, never its children.
sub serve {
    $| = 1;
    $SIG{PIPE} = 'IGNORE';
    # Only to interrupt select(2): supervisors are reaped after it returns.
    $SIG{CHLD} = sub {};
    my $buf = '';
    while (1) {
        while ((my $ended = waitpid(-1, 1)) > 0) {
            print("X $ended $?\n") or return;
        }
        my $rin = '';
        vec($rin, fileno(STDIN), 1) = 1;
        next if select(my $rout = $rin, undef, undef, 0.2) <= 0;
        my $got = sysread(STDIN, $buf, 65536, length $buf);
        if (!defined $got) {
            next if $! == 4;
            return;
        }
        return if $got == 0;
        while ($buf =~ /\A(\d+)\n/ && length($buf) >= length($1) + 1 + $1) {
            my ($head, $length) = (length($1) + 1, $1);
            my @args = split(/\0/, substr($buf, $head, $length), -1);
            pop @args;
            substr($buf, 0, $head + $length) = '';
            my $pid = fork;
            if (!defined $pid) {
                print("F\n") or return;
            } elsif ($pid == 0) {
                $SIG{CHLD} = 'DEFAULT';
                $SIG{PIPE} = 'DEFAULT';
                open(STDIN, '<', '/dev/null');
                open(STDOUT, '>', '/dev/null');
                open(STDERR, '>&', \*STDOUT);
                # The daemon knows a supervisor by its job directory on its command line.
                $0 = "sluice-supervise $args[0]";
                supervise(@args);
            } else {
                print("S $pid\n") or return;
            }
        }
    }
}

# One job: what a supervisor started on its own (perl -t sluice-supervise.pl JOBDIR ...) does.
sub supervise {
    ($dir, $setsid) = splice(@_, 0, 2);
    ($setsid, $exit_group) = split(/:/, $setsid);
    while (@_ && $_[0] ne '--') {
        my $opt = shift;
        if ($opt eq '--cgroup') { my $n = shift; @cgroups = splice(@_, 0, $n); }
        elsif ($opt eq '--user') { @user = splice(@_, 0, 4); }
        elsif ($opt eq '--io') { @io = splice(@_, 0, 6); }
        else { done(2); }
    }
    shift;
    my @command = @_;
    for my $cg (@cgroups) {
        open(my $f, '>', "$cg/cgroup.procs") or done(126);
        print $f "$$\n";
        close($f) or done(126);
    }
    umask 077;
    session();
    fact('supervisor.pid', $$);
    if (-x "$dir/prolog" && !-e "$dir/prolog.done") {
        my $rc = script("$dir/prolog");
        if ($rc != 0) {
            fact('prolog.failed', $rc);
            done(0);
        }
        open(my $f, '>', "$dir/prolog.done") and close($f);
    }
    # Two pipes between the job's process and this one. The job closes `ready' once it leads its own
    # session and has opened its files; only then is its pid published, so a signal to its group
    # always reaches it and a line appended to its error file is never truncated away. This process
    # then tells it, through `go', whether it is already being ended (end_state, written by
    # sluice-noded before it looks for job.pid): the end the daemon could not deliver for want of a
    # pid is delivered here, with slurmstepd's line (end_notice) unless the daemon claimed that first.
    pipe(my $ready_r, my $ready_w) or done(1);
    pipe(my $go_r, my $go_w) or done(1);
    my $pid = fork;
    done(1) unless defined $pid;
    if ($pid == 0) {
        close($ready_r);
        close($go_w);
        job($ready_w, $go_r, @command);
    }
    close($ready_w);
    close($go_r);
    sysread($ready_r, my $ignored, 1);
    close($ready_r);
    fact('job.pid', $pid);
    if (-e "$dir/end_state") {
        my $message = 'E';
        if (rename("$dir/end_notice", "$dir/end_notice.claimed") && open(my $n, '<', "$dir/end_notice.claimed")) {
            local $/;
            $message .= <$n>;
            close($n);
        }
        local $SIG{PIPE} = 'IGNORE';
        syswrite($go_w, $message);
    }
    close($go_w);
    done(1) unless waitpid($pid, 0) == $pid;
    my $status = $?;
    kill('KILL', -$pid);
    fact('wait_status', $status);
    fact('exit', ($status & 127) ? 128 + ($status & 127) : $status >> 8);
    if (-x "$dir/epilog") {
        my $rc = script("$dir/epilog");
        fact('epilog.failed', $rc) if $rc != 0;
    }
    done(0);
}

# The supervisor's end: its files are closed, so nothing buffered is lost.
sub done {
    my ($rc) = @_;
    syscall($exit_group + 0, $rc + 0) if $exit_group;
    exit $rc;
}

sub session {
    if ($setsid > 0) {
        return if syscall($setsid + 0) >= 0;
    }
    require POSIX;
    POSIX::setsid();
}

# Prolog and Epilog: root's, with this process's /dev/null for standard files; the shell's $?.
sub script {
    my ($program) = @_;
    system { $program } $program;
    my $s = $?;
    return 127 if $s == -1;
    return ($s & 127) ? 128 + ($s & 127) : $s >> 8;
}

sub fact {
    my ($name, $value) = @_;
    open(my $f, '>', "$dir/$name.tmp") or return;
    print $f "$value\n";
    close($f) and rename("$dir/$name.tmp", "$dir/$name");
}

sub truncated {
    my ($file) = @_;
    open(my $f, '>', $file) or return 0;
    return close($f);
}

sub job {
    my ($ready, $go, @command) = @_;
    session();
    if (@user) {
        my ($uid, $gid, $name, $envfile) = @user;
        if ($uid != $<) {
            my @groups = ($gid);
            while (my @g = getgrent) {
                push @groups, $g[2] if $g[2] != $gid && grep { $_ eq $name } split(' ', $g[3]);
            }
            endgrent();
            $) = join(' ', $gid, @groups);
            $( = $gid;
            ($<, $>) = ($uid, $uid);
            if ($< != $uid || $> != $uid || $( + 0 != $gid || $) + 0 != $gid) {
                print STDERR "slurmstepd: error: cannot become uid $uid gid $gid\n";
                exit 1;
            }
        }
        open(my $f, '<:raw', $envfile) or die "slurmstepd: error: cannot read the job's environment: $!\n";
        local $/ = "\0";
        my %env;
        while (defined(my $e = <$f>)) {
            chomp $e;
            my $i = index($e, '=');
            $env{substr($e, 0, $i)} = substr($e, $i + 1) if $i > 0;
        }
        close($f);
        %ENV = %env;
    }
    if (@io) {
        my ($w, $o, $e, $i, $n, $append) = @io;
        my $mask = delete $ENV{SLURM_UMASK};
        umask((defined $mask && $mask =~ /^[0-7]{1,4}$/) ? oct($mask) : 022);
        my $nowd;
        if (!chdir($w)) {
            $nowd = !-e $w ? 'No such file or directory' : !-d $w ? 'Not a directory' : 'Permission denied';
            chdir('/tmp');
        }
        $ENV{PWD} = defined $nowd ? '/tmp' : $w if exists $ENV{PWD};
        my $ok = 1;
        if ($append ne '1') {
            $ok &&= truncated($o);
            $ok &&= truncated($e) if $e ne $o;
        }
        $ok &&= open(STDIN, '<', $i);
        $ok &&= open(STDOUT, '>>', $o);
        $ok &&= ($e eq $o ? open(STDERR, '>&', \*STDOUT) : open(STDERR, '>>', $e));
        if (!$ok) {
            kill(53, $$);
            exit 1;
        }
        if (defined $nowd) {
            my $l = "slurmstepd-$n: error: couldn't chdir to `$w': $nowd: going to /tmp instead\n";
            print STDERR $l, $l;
        }
    }
    close($ready);
    my ($message, $part) = ('', '');
    $message .= $part while sysread($go, $part, 4096);
    close($go);
    if ($message ne '') {
        print STDERR substr($message, 1);
        # Even where the daemon was started with SIGTERM ignored: the job dies of it, as Slurm's.
        $SIG{TERM} = 'DEFAULT';
        kill('TERM', $$);
        exit 1;
    }
    $SIG{INT} = 'DEFAULT';
    $SIG{QUIT} = 'DEFAULT';
    exec { $command[0] } @command;
    die "slurmstepd: error: execve(): $command[0]: $!\n";
}
