package dev.sluice.restd;

import dev.sluice.protocol.v1.GetSharesResponse;
import dev.sluice.protocol.v1.ShareInfo;

/** The fair-share tree {@link FakeController} answers sshare's request with: root, two accounts, a user in each. */
final class FakeShares {
    private FakeShares() {}

    static GetSharesResponse tree() {
        return GetSharesResponse.newBuilder()
                .setMultifactor(true)
                .setCluster("test")
                .addShares(line("root", "", 0, 1).setParentShares(true).setNormShares(1.0))
                .addShares(line("physics", "", 1, 2)
                        .setRawShares(3)
                        .setNormShares(0.75)
                        .setRawUsage(600))
                .addShares(line("physics", "alice", 2, 3)
                        .setRawShares(1)
                        .setNormShares(1.0)
                        .setRawUsage(600)
                        .setFairshare(0.5)
                        .setLevelFs(1.25)
                        .putTresRunMins("cpu", 20))
                .addShares(line("chem", "", 1, 4).setRawShares(1).setNormShares(0.25))
                .addShares(line("chem", "bob", 2, 5)
                        .setRawShares(1)
                        .setNormShares(1.0)
                        .setFairshare(1.0))
                .build();
    }

    private static ShareInfo.Builder line(String account, String user, int depth, int id) {
        return ShareInfo.newBuilder()
                .setAccount(account)
                .setUser(user)
                .setDepth(depth)
                .setId(id)
                .setFairshare(user.isEmpty() ? Double.NaN : 0)
                .setLevelFs(Double.NaN);
    }
}
