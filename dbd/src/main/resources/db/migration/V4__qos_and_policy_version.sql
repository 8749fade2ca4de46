-- QOS (sacctmgr add/modify/delete/list qos) and the version the controllers poll
-- (AccountingStorageEnforce): every committed sacctmgr change bumps it.

CREATE TABLE acct_qos (
    name VARCHAR(64) NOT NULL PRIMARY KEY,
    description VARCHAR(256) NOT NULL,
    priority BIGINT NOT NULL,
    grace_time_seconds BIGINT NOT NULL,
    preempt VARCHAR(1024) NOT NULL,
    preempt_mode VARCHAR(16) NOT NULL,
    flags VARCHAR(1024) NOT NULL,
    usage_factor DOUBLE NOT NULL,
    grp_tres VARCHAR(1024),
    max_tres_per_job VARCHAR(1024),
    max_wall_minutes BIGINT,
    max_jobs_per_user BIGINT,
    max_submit_jobs_per_user BIGINT,
    created_at BIGINT NOT NULL
);

-- Every Slurm database starts with QOS normal.
INSERT INTO acct_qos (name, description, priority, grace_time_seconds, preempt, preempt_mode, flags, usage_factor,
        created_at)
    VALUES ('normal', 'Normal QOS default', 0, 0, '', 'cluster', '', 1.0, 0);

CREATE TABLE acct_policy_version (
    id INT NOT NULL PRIMARY KEY,
    version BIGINT NOT NULL
);

INSERT INTO acct_policy_version (id, version) VALUES (1, 1);
