-- Workload characterization keys (sacctmgr show wckey): one row per (name, cluster, user), as
-- slurmdbd keeps them; a deleted one stays, flagged, for WithDeleted.
CREATE TABLE acct_wckeys (
    id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(64) NOT NULL,
    cluster_name VARCHAR(64) NOT NULL,
    user_name VARCHAR(64) NOT NULL,
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    deleted BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    CONSTRAINT acct_wckeys_key UNIQUE (name, cluster_name, user_name)
);

-- The user's default wckey (sacctmgr show user format=DefaultWCKey); '' when none.
ALTER TABLE acct_users ADD COLUMN default_wckey VARCHAR(64) NOT NULL DEFAULT '';
