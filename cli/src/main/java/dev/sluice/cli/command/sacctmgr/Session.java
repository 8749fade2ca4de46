package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.common.conf.SlurmConf;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One sacctmgr run: its streams, its options and its connection to sluice-dbd. */
final class Session {
    final Invocation inv;
    final PrintStream out;
    final PrintStream err;
    boolean immediate;
    boolean header = true;
    FieldTable.Mode mode = FieldTable.Mode.FIXED;
    /** {@code -s}: users and accounts are listed with their associations. */
    boolean withAssoc;
    /** The slurm.conf read at start; null before. */
    SlurmConf conf;

    AccountingClient client;

    Session(Invocation inv, PrintStream out, PrintStream err) {
        this.inv = inv;
        this.out = out;
        this.err = err;
    }

    /**
     * sacctmgr's question before a change; true to commit. Without {@code -i} it reads one line
     * from standard input: "y" commits, anything else (or end of input) discards.
     */
    boolean confirm() {
        if (immediate) {
            return true;
        }
        out.print("Would you like to commit changes? (You have 30 seconds to decide)\n(N/y): ");
        out.flush();
        String answer;
        try {
            answer = new BufferedReader(new InputStreamReader(inv.stdin(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            answer = null;
        }
        out.println();
        if (answer != null && answer.strip().toLowerCase(java.util.Locale.ROOT).startsWith("y")) {
            return true;
        }
        out.println(" Changes Discarded");
        return false;
    }

    /**
     * What sacctmgr prints when slurmdbd refuses a user an operator's request (listing wckeys,
     * changing another user's job); the command's exit status.
     */
    int noPrivilege() {
        err.println("sacctmgr: error: Your user doesn't have privilege to perform this action");
        err.println(" Error with request: " + dev.sluice.common.error.ErrorCode.ACCESS_DENIED.text());
        return 1;
    }
}
