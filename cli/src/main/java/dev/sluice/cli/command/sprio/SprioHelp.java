package dev.sluice.cli.command.sprio;

/** sprio --help, as Slurm 22.05 prints it. */
final class SprioHelp {
    private SprioHelp() {}

    static final String HELP = "Usage: sprio [OPTIONS]\n"
            + "      --federation                display jobs in federation if a member of one\n"
            + "  -h, --noheader                  no headers on output\n"
            + "  -j, --jobs                      comma separated list of jobs\n"
            + "                                  to view, default is all\n"
            + "      --local                     display jobs on local cluster only\n"
            + "  -l, --long                      long report\n"
            + "  -M, --cluster=cluster_name      cluster to issue commands to.  Default is\n"
            + "                                  current cluster.  cluster with no name will\n"
            + "                                  reset to default.\n"
            + "                                  NOTE: SlurmDBD must be up.\n"
            + "  -n, --norm                      display normalized values\n"
            + "  -o, --format=format             format specification\n"
            + "      --sibling                   display job records separately for each federation cluster\n"
            + "  -p, --partition=partition_name  comma separated list of partitions\n"
            + "  -u, --user=user_name            comma separated list of users to view\n"
            + "  -v, --verbose                   verbosity level\n"
            + "  -V, --version                   output version information and exit\n"
            + "  -w, --weights                   show the weights for each priority factor\n"
            + "\n"
            + "Help options:\n"
            + "  --help                          show this help message\n"
            + "  --usage                         display a brief summary of sprio options\n";
}
