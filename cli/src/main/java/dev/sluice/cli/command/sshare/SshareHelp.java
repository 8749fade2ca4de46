package dev.sluice.cli.command.sshare;

/** sshare --help (also its --usage) and --helpformat, as Slurm 22.05 prints them. */
final class SshareHelp {
    private SshareHelp() {}

    static final String HELP = "Usage:  sshare [OPTION]                                                    \n"
            + "  Valid OPTIONs are:                                                       \n"
            + "    -a or --all            list all users                                  \n"
            + "    -A or --accounts=      display specific accounts (comma separated list)\n"
            + "    -e or --helpformat     Print a list of fields that can be specified    \n"
            + "                           with the '--format' option                      \n"
            + "    -l or --long           include normalized usage in output              \n"
            + "    -m or --partition      print the partition part of the association     \n"
            + "    -M or --cluster=names  clusters to issue commands to.                  \n"
            + "                           NOTE: SlurmDBD must be up.                      \n"
            + "    -n or --noheader       omit header from output                         \n"
            + "    -o or --format=        Comma separated list of fields (use             \n"
            + "                           \"--helpformat\" for a list of available fields).\n"
            + "    -p or --parsable       '|' delimited output with a trailing '|'        \n"
            + "    -P or --parsable2      '|' delimited output without a trailing '|'     \n"
            + "    -u or --users=         display specific users (comma separated list)   \n"
            + "    -U or --Users          display only user information                   \n"
            + "    -v or --verbose        display more information                        \n"
            + "    -V or --version        display tool version number                     \n"
            + "          --help           display this usage description                  \n"
            + "          --usage          display this usage description                  \n"
            + "                                                                           \n"
            + "\n";

    static final String FIELDS = "Account           Cluster           EffectvUsage      FairShare        \n"
            + "GrpTRESMins       GrpTRESRaw        ID                LevelFS          \n"
            + "NormShares        NormUsage         Partition         RawShares        \n"
            + "RawUsage          TRESRunMins       User             \n";
}
