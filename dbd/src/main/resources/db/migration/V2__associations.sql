-- Accounts, users and their associations (sacctmgr). Limits are stored here; enforcing them
-- is the controller's part (AccountingStorageEnforce) and comes later.

CREATE TABLE acct_accounts (
    name VARCHAR(64) NOT NULL PRIMARY KEY,
    description VARCHAR(256) NOT NULL,
    organization VARCHAR(256) NOT NULL,
    created_at BIGINT NOT NULL
);

INSERT INTO acct_accounts (name, description, organization, created_at)
    VALUES ('root', 'default root account', 'root', 0);

CREATE TABLE acct_users (
    name VARCHAR(64) NOT NULL PRIMARY KEY,
    default_account VARCHAR(64) NOT NULL,
    admin_level VARCHAR(16) NOT NULL,
    created_at BIGINT NOT NULL
);

INSERT INTO acct_users (name, default_account, admin_level, created_at)
    VALUES ('root', 'root', 'Administrator', 0);

-- One row per (cluster, account, user, partition); user '' is the account's own association.
-- Limit columns are NULL when unset.
CREATE TABLE acct_associations (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    cluster_name VARCHAR(64) NOT NULL,
    account VARCHAR(64) NOT NULL,
    user_name VARCHAR(64) NOT NULL,
    partition_name VARCHAR(64) NOT NULL,
    parent_account VARCHAR(64) NOT NULL,
    shares INT,
    max_jobs INT,
    max_submit_jobs INT,
    max_wall_minutes INT,
    grp_tres VARCHAR(1024),
    max_tres VARCHAR(1024),
    qos VARCHAR(1024),
    default_qos VARCHAR(64),
    created_at BIGINT NOT NULL,
    CONSTRAINT acct_assoc_key_uq UNIQUE (cluster_name, account, user_name, partition_name)
);

CREATE INDEX acct_assoc_user_ix ON acct_associations (user_name);

-- Clusters registered before this version get the root associations sacctmgr shows.
INSERT INTO acct_associations (cluster_name, account, user_name, partition_name, parent_account, shares, qos,
        created_at)
    SELECT name, 'root', '', '', '', 1, 'normal', created_at FROM clusters;
INSERT INTO acct_associations (cluster_name, account, user_name, partition_name, parent_account, shares, qos,
        created_at)
    SELECT name, 'root', 'root', '', 'root', 1, 'normal', created_at FROM clusters;
