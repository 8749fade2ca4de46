# sluice job supervisor: written by sluice-noded into its spool, run by it as root (Supervisor.java).
# Two ways to run it; both carry out a job's life the same way (begin ... finish below):
#   perl -t sluice-supervise.pl --serve [SETSID:EXIT_GROUP [TOKEN]]
#     the supervisor host, one per node daemon: the parent of every job the daemon starts;
#   perl -t sluice-supervise.pl JOBDIR SETSID:EXIT_GROUP [--cgroup N DIR...] [--user UID GID NAME ENVFILE GROUPS]
#        [--io WORKDIR OUT ERR IN NODE APPEND] [--environment N RECORD...] -- COMMAND...
#     one job's supervisor, started alone (where no host runs, and in tests).
# A job's life: the node's Prolog once (prolog.done), then the job's process, whose pid is recorded
# (job.pid) once it leads its own session and has opened its files; it is ended at once if
# sluice-noded already asked to; it is waited for with waitpid(2) and its exact wait status recorded
# (wait_status), with the shell's form of it (exit); what the job left in its session is killed;
# then the Epilog, and supervisor.done. Facts are lines appended to the job's file `facts', each by
# one write(2), so a restarted sluice-noded reads each whole or not at all (a cut last line).
# --cgroup: Prolog, job and Epilog run in each DIR (cgroup.procs): a
# supervisor alone joins them itself first (exit 126 when it cannot, before anything else); under
# the host each of a job's processes joins them before it does anything else, and a job's process
# that cannot ends the job with no status, as a supervisor that could not did.
# The job's process, before it becomes COMMAND with one exec: its own session; the user's identity
# (--user: groups, GROUPS comma-separated as the daemon's getgrouplist(3) found them, or those of the
# group file when empty; gid, uid, real, effective and saved); the job's environment, the N
# NAME=VALUE records of --environment, or else read from ENVFILE as the user (a later name wins); the user's umask (SLURM_UMASK); the working directory, or /tmp; its standard files,
# opened as the user (--io: truncated unless APPEND is 1, then opened for appending; failing that,
# the job ends by signal 53, Slurm's JobLaunchFailure); SIGINT, SIGQUIT and SIGPIPE at their defaults.
# SETSID is setsid(2)'s system call number here, or 0 for POSIX::setsid; EXIT_GROUP exit_group(2)'s,
# or 0 for Perl's exit: a forked process that ends by the system call skips tearing the interpreter
# down, which copies the pages it shares with the host. No module is loaded otherwise (the node
# image may carry perl-base alone). -t: Perl ignores PERL5OPT and PERL5LIB.
$SIG{__WARN__} = sub {};
my ($setsid, $exit_group) = (0, 0);
# A job's processes: pid => [job, 'prolog' | 'job' | 'epilog'].
my %kids;
# Jobs whose process has not yet said it is ready (its `ready' pipe), by key.
my %awaiting;
# Whether the daemon still reads what the host answers.
my $answering = 0;
# The host's own pipe that a child's end writes to.
my @wake;
if (@ARGV >= 1 && $ARGV[0] eq '--serve') {
    serve(@ARGV[1 .. $#ARGV]);
    exit 0;
}
alone(@ARGV);

# The supervisor host. It is every job's parent: a job costs a fork here and the job's own exec,
# with no process of its own beside the job. A request is its length in decimal and a newline, then
# a lone supervisor's arguments, each ended by a NUL. Answers, one line each: "S KEY" (the job is
# under way) or "F" (it could not be started) per request, in order; "X KEY" once a job's life is
# over (its facts and supervisor.done written). The host leads a session of its own and records
# itself as each job's supervisor (supervisor.pid, and supervisor.host: TOKEN, which its command
# line carries), so that a restarted daemon knows it again. At the end of its input (the daemon is gone)
# it takes no more requests but stays until its last job's life is over, then exits.
sub serve {
    my ($numbers, $token) = @_;
    ($setsid, $exit_group) = split(/:/, $numbers) if defined $numbers;
    $token = '' unless defined $token;
    session() if defined $numbers;
    umask 077;
    $| = 1;
    $answering = 1;
    $SIG{PIPE} = 'IGNORE';
    # A child's end wakes select(2) through this pipe, also when it comes just before the call:
    # children are reaped after it returns.
    pipe(my $wake_r, my $wake_w) or exit 1;
    @wake = ($wake_r, $wake_w);
    $SIG{CHLD} = sub { syswrite($wake_w, 'x') };
    my ($open, $buf, $key) = (1, '', 0);
    while ($open || %kids) {
        while ((my $pid = waitpid(-1, 1)) > 0) {
            reaped($pid, $?);
        }
        my $rin = '';
        vec($rin, fileno(STDIN), 1) = 1 if $open;
        vec($rin, fileno($wake_r), 1) = 1;
        vec($rin, fileno($_->{ready}), 1) = 1 for values %awaiting;
        next if select(my $rout = $rin, undef, undef, 5) <= 0;
        sysread($wake_r, my $woken, 4096) if vec($rout, fileno($wake_r), 1);
        for my $job (values %awaiting) {
            published($job) if vec($rout, fileno($job->{ready}), 1);
        }
        next unless $open && vec($rout, fileno(STDIN), 1);
        my $got = sysread(STDIN, $buf, 65536, length $buf);
        if (!defined $got) {
            next if $! == 4;
            $open = 0;
        }
        $open = 0 if !$got;
        while ($buf =~ /\A(\d+)\n/ && length($buf) >= length($1) + 1 + $1) {
            my ($head, $length) = (length($1) + 1, $1);
            my @args = split(/\0/, substr($buf, $head, $length), -1);
            pop @args;
            substr($buf, 0, $head + $length) = '';
            my $job = parse(@args);
            if ($job && begin($job, 1)) {
                $job->{key} = ++$key;
                fact($job, 'supervisor.host', $token);
                fact($job, 'supervisor.pid', $$);
                answer("S $key");
            } else {
                answer("F");
            }
        }
    }
}

# A supervisor started alone: it joins the cgroups and leads a session itself, and its children
# inherit both.
sub alone {
    my $job = parse(@_) or done(2);
    for my $cg (@{$job->{cgroups}}) {
        into($cg) or done(126);
    }
    umask 077;
    session();
    fact($job, 'supervisor.pid', $$);
    begin($job, 0) or done(1);
    while (%kids) {
        # Waited for here, not in the loop of the host: there is one job, so this may block.
        if (my ($ready) = values %awaiting) {
            published($ready);
            next;
        }
        my $pid = waitpid(-1, 0);
        last if $pid <= 0;
        reaped($pid, $?);
    }
    done(0);
}

sub parse {
    my ($dir, $numbers, @rest) = @_;
    return undef unless defined $numbers;
    ($setsid, $exit_group) = split(/:/, $numbers);
    my %job = (dir => $dir, cgroups => [], user => [], io => []);
    while (@rest && $rest[0] ne '--') {
        my $opt = shift @rest;
        if ($opt eq '--cgroup') { my $n = shift @rest; $job{cgroups} = [splice(@rest, 0, $n)]; }
        elsif ($opt eq '--user') { $job{user} = [splice(@rest, 0, 5)]; }
        elsif ($opt eq '--io') { $job{io} = [splice(@rest, 0, 6)]; }
        elsif ($opt eq '--environment') { my $n = shift @rest; $job{environment} = [splice(@rest, 0, $n)]; }
        else { return undef; }
    }
    shift @rest;
    return undef unless @rest;
    $job{command} = \@rest;
    return \%job;
}

# The first step of a job's life: its Prolog, or the job itself.
sub begin {
    my ($job, $hosted) = @_;
    $job->{hosted} = $hosted;
    my $dir = $job->{dir};
    return spawn($job, 'prolog', "$dir/prolog") if -x "$dir/prolog" && !has_fact($job, 'prolog.done');
    return start($job);
}

# Prolog and Epilog: root's, in a session of their own, with /dev/null for standard files.
sub spawn {
    my ($job, $kind, $program) = @_;
    my $pid = fork;
    return 0 unless defined $pid;
    if ($pid == 0) {
        child($job) or done(126);
        session();
        exec { $program } $program;
        done(127);
    }
    $kids{$pid} = [$job, $kind];
    return 1;
}

# Two pipes between the job's process and its supervisor. The job closes `ready' once it leads its
# own session and has opened its files; only then is its pid published, so a signal to its group
# always reaches it and a line appended to its error file is never truncated away. The supervisor
# then tells it, through `go', whether it is already being ended (end_state, written by sluice-noded
# before it looks for job.pid): the end the daemon could not deliver for want of a pid is delivered
# here, with slurmstepd's line (end_notice) unless the daemon claimed that first.
sub start {
    my ($job) = @_;
    pipe(my $ready_r, my $ready_w) or return 0;
    pipe(my $go_r, my $go_w) or return 0;
    my $pid = fork;
    return 0 unless defined $pid;
    if ($pid == 0) {
        close($ready_r);
        close($go_w);
        if (!child($job)) {
            syswrite($ready_w, 'C');
            done(1);
        }
        job($job, $ready_w, $go_r);
    }
    close($ready_w);
    close($go_r);
    @$job{qw(pid ready go)} = ($pid, $ready_r, $go_w);
    $awaiting{$pid} = $job;
    $kids{$pid} = [$job, 'job'];
    return 1;
}

# What each of a job's processes does first under the host: nothing of the host's (its pipes to the
# daemon, its handlers, other jobs' pipes), then the job's cgroups.
sub child {
    my ($job) = @_;
    return 1 unless $job->{hosted};
    $SIG{CHLD} = 'DEFAULT';
    $SIG{PIPE} = 'DEFAULT';
    close($_) for @wake;
    for my $other (values %awaiting) {
        close($other->{ready});
        close($other->{go});
    }
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', '/dev/null');
    open(STDERR, '>&', \*STDOUT);
    for my $cg (@{$job->{cgroups}}) {
        into($cg) or return 0;
    }
    return 1;
}

sub into {
    my ($cg) = @_;
    open(my $f, ">>", "$cg/cgroup.procs") or return 0;
    print $f "$$\n";
    return close($f);
}

# The job's process is ready (or gone before it was): its pid is published and it is let go.
sub published {
    my ($job) = @_;
    delete $awaiting{$job->{pid}};
    my $got = sysread($job->{ready}, my $said, 1);
    close($job->{ready});
    if ($got && $said eq 'C') {
        $job->{failed} = 1;
        close($job->{go});
        return;
    }
    fact($job, 'job.pid', $job->{pid});
    my $dir = $job->{dir};
    if (has_fact($job, 'end_state')) {
        my $message = 'E';
        if (rename("$dir/end_notice", "$dir/end_notice.claimed") && open(my $n, '<', "$dir/end_notice.claimed")) {
            local $/;
            $message .= <$n>;
            close($n);
        }
        local $SIG{PIPE} = 'IGNORE';
        syswrite($job->{go}, $message);
    }
    close($job->{go});
}

# One of a job's processes has ended: the next step of its life.
sub reaped {
    my ($pid, $status) = @_;
    my $kid = delete $kids{$pid} or return;
    my ($job, $kind) = @$kid;
    my $dir = $job->{dir};
    my $rc = ($status & 127) ? 128 + ($status & 127) : $status >> 8;
    if ($kind eq 'prolog') {
        if ($rc != 0) {
            fact($job, 'prolog.failed', $rc);
            return finish($job);
        }
        fact($job, 'prolog.done', '');
        return start($job) || finish($job);
    }
    if ($kind eq 'job') {
        published($job) if $awaiting{$pid};
        return finish($job) if $job->{failed};
        kill('KILL', -$pid);
        fact($job, 'wait_status', $status);
        fact($job, 'exit', $rc);
        return finish($job) unless -x "$dir/epilog";
        return spawn($job, 'epilog', "$dir/epilog") || finish($job);
    }
    fact($job, 'epilog.failed', $rc) if $rc != 0;
    finish($job);
}

sub finish {
    my ($job) = @_;
    fact($job, 'supervisor.done', '') if $job->{hosted};
    answer("X $job->{key}") if $job->{hosted};
}

sub answer {
    my ($line) = @_;
    $answering = 0 if $answering && !print("$line\n");
}

# The end of a supervisor alone, or of a forked process that did not exec: its files are closed,
# so nothing buffered is lost.
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

sub fact {
    my ($job, $name, $value) = @_;
    my $dir = $job->{dir};
    open(my $f, '>>', "$dir/facts") or return;
    syswrite($f, "$name=$value\n");
    close($f);
}

sub has_fact {
    my ($job, $name) = @_;
    open(my $f, '<', "$job->{dir}/facts") or return 0;
    while (my $line = <$f>) {
        return 1 if substr($line, -1) eq "\n" && index($line, "$name=") == 0;
    }
    return 0;
}

sub truncated {
    my ($file) = @_;
    open(my $f, '>', $file) or return 0;
    return close($f);
}

sub job {
    my ($job, $ready, $go) = @_;
    my @command = @{$job->{command}};
    session();
    if (@{$job->{user}}) {
        my ($uid, $gid, $name, $envfile, $given) = @{$job->{user}};
        if ($uid != $<) {
            # The daemon's getgrouplist(3), directory groups included; the group file only
            # where it could not ask.
            my @groups = split(/,/, $given);
            if (!@groups) {
                @groups = ($gid);
                while (my @g = getgrent) {
                    push @groups, $g[2] if $g[2] != $gid && grep { $_ eq $name } split(' ', $g[3]);
                }
                endgrent();
            }
            $) = join(' ', $gid, @groups);
            $( = $gid;
            ($<, $>) = ($uid, $uid);
            if ($< != $uid || $> != $uid || $( + 0 != $gid || $) + 0 != $gid) {
                print STDERR "slurmstepd: error: cannot become uid $uid gid $gid\n";
                done(1);
            }
        }
        my @records;
        if ($job->{environment}) {
            @records = @{$job->{environment}};
        } else {
            open(my $f, '<:raw', $envfile) or die "slurmstepd: error: cannot read the job's environment: $!\n";
            local $/ = "\0";
            while (defined(my $e = <$f>)) {
                chomp $e;
                push @records, $e;
            }
            close($f);
        }
        my %env;
        for my $e (@records) {
            my $i = index($e, '=');
            $env{substr($e, 0, $i)} = substr($e, $i + 1) if $i > 0;
        }
        %ENV = %env;
    }
    if (@{$job->{io}}) {
        my ($w, $o, $e, $i, $n, $append) = @{$job->{io}};
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
            done(1);
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
        done(1);
    }
    $SIG{INT} = 'DEFAULT';
    $SIG{QUIT} = 'DEFAULT';
    $SIG{PIPE} = 'DEFAULT';
    exec { $command[0] } @command;
    die "slurmstepd: error: execve(): $command[0]: $!\n";
}
