package dev.sluice.cli.command.sshare;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Whose user lines sshare shows, as real Slurm 22.05 did in compat scenarios 116, 117 and 227. */
class TestShownUsers {
    @Test
    void allShowsEveryUserEvenWithAUserList() {
        assertThat(SshareCommand.shownUsers(true, "sluiceuser1,sluiceuser2", "root"))
                .isNull();
        assertThat(SshareCommand.shownUsers(true, null, "root")).isNull();
    }

    @Test
    void aUserListElseTheCaller() {
        assertThat(SshareCommand.shownUsers(false, "sluiceuser1,sluiceuser2", "root"))
                .containsExactlyInAnyOrder("sluiceuser1", "sluiceuser2");
        assertThat(SshareCommand.shownUsers(false, null, "sluiceuser1")).containsExactly("sluiceuser1");
    }
}
