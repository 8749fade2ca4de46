-- Hourly usage rollups (sreport), in the manner of slurmdbd's <cluster>_assoc_usage_hour_table
-- and <cluster>_usage_hour_table, but keyed by account and user names; and the limits GrpJobs
-- and GrpSubmitJobs of associations and QOS. Times are epoch seconds; usage is TRES-seconds (memory:
-- megabyte-seconds).

-- The cluster's size as its controller reports it (Slurm's cluster events): the TRES totals of
-- its nodes from time_start to time_end, 0 while current, and the part of it on nodes DOWN or
-- DRAINED (down_tres). TRES in the id form of jobs.tres_alloc.
CREATE TABLE cluster_tres_periods (
    cluster_id BIGINT NOT NULL,
    time_start BIGINT NOT NULL,
    time_end BIGINT NOT NULL,
    tres VARCHAR(1024) NOT NULL,
    down_tres VARCHAR(1024) NOT NULL,
    CONSTRAINT cluster_tres_periods_pk PRIMARY KEY (cluster_id, time_start),
    CONSTRAINT cluster_tres_periods_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);

-- Per hour, per user association, per TRES: allocated TRES-seconds. Only non-zero rows.
CREATE TABLE usage_assoc_hour (
    cluster_id BIGINT NOT NULL,
    time_start BIGINT NOT NULL,
    account VARCHAR(64) NOT NULL,
    user_name VARCHAR(64) NOT NULL,
    tres_id INT NOT NULL,
    alloc_secs BIGINT NOT NULL,
    CONSTRAINT usage_assoc_hour_pk PRIMARY KEY (cluster_id, time_start, account, user_name, tres_id),
    CONSTRAINT usage_assoc_hour_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);

-- Per hour, per TRES of the cluster: its count and the seconds allocated, down, planned down,
-- idle, reserved (plan) and over-committed.
CREATE TABLE usage_cluster_hour (
    cluster_id BIGINT NOT NULL,
    time_start BIGINT NOT NULL,
    tres_id INT NOT NULL,
    tres_count BIGINT NOT NULL,
    alloc_secs BIGINT NOT NULL,
    down_secs BIGINT NOT NULL,
    pdown_secs BIGINT NOT NULL,
    idle_secs BIGINT NOT NULL,
    plan_secs BIGINT NOT NULL,
    over_secs BIGINT NOT NULL,
    CONSTRAINT usage_cluster_hour_pk PRIMARY KEY (cluster_id, time_start, tres_id),
    CONSTRAINT usage_cluster_hour_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);

-- Hours before rolled_through are rolled up. A record that changes an earlier hour (a job
-- shipped late, after an outage) moves the mark back, and the next rollup redoes those hours.
CREATE TABLE usage_rollup_mark (
    cluster_id BIGINT NOT NULL PRIMARY KEY,
    rolled_through BIGINT NOT NULL,
    CONSTRAINT usage_rollup_mark_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);

-- The rollup reads the jobs that started before an hour's end.
CREATE INDEX jobs_start_ix ON jobs (cluster_id, start_time);

ALTER TABLE acct_associations ADD COLUMN grp_jobs INT;
ALTER TABLE acct_associations ADD COLUMN grp_submit_jobs INT;
ALTER TABLE acct_qos ADD COLUMN grp_jobs BIGINT;
ALTER TABLE acct_qos ADD COLUMN grp_submit_jobs BIGINT;
