-- Sluice accounting schema, first version. Runs unchanged on MariaDB and on H2 in MariaDB
-- mode (the embedded default), so it keeps to the SQL both accept: no UNSIGNED, no ENUM, no
-- TEXT columns (H2 turns those into CLOBs), names that are keywords in neither.
-- Times are epoch seconds, 0 meaning "not yet" as in Slurm's own tables.

CREATE TABLE clusters (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(64) NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT clusters_name_uq UNIQUE (name)
);

-- Trackable resources with Slurm's fixed ids for the built-in kinds, so TRES strings stored
-- as "id=count" read the same as Slurm's. GRES and licenses get ids from 1001 on demand.
CREATE TABLE tres (
    id INT NOT NULL PRIMARY KEY,
    tres_type VARCHAR(64) NOT NULL,
    tres_name VARCHAR(64) NOT NULL,
    CONSTRAINT tres_type_name_uq UNIQUE (tres_type, tres_name)
);

INSERT INTO tres (id, tres_type, tres_name) VALUES
    (1, 'cpu', ''),
    (2, 'mem', ''),
    (3, 'energy', ''),
    (4, 'node', ''),
    (5, 'billing', ''),
    (6, 'fs', 'disk'),
    (7, 'vmem', ''),
    (8, 'pages', ''),
    (1001, 'gres', 'gpu');

-- The highest controller sequence applied per cluster: a batch re-sent after a lost ack finds
-- its records at or below this mark and changes nothing.
CREATE TABLE applied_sequence (
    cluster_id BIGINT NOT NULL PRIMARY KEY,
    applied_through BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT applied_sequence_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);

CREATE TABLE jobs (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    cluster_id BIGINT NOT NULL,
    job_id BIGINT NOT NULL,
    submit_time BIGINT NOT NULL,
    job_name VARCHAR(256) NOT NULL,
    user_name VARCHAR(64) NOT NULL,
    uid BIGINT NOT NULL,
    gid BIGINT NOT NULL,
    group_name VARCHAR(64) NOT NULL,
    account VARCHAR(64) NOT NULL,
    partition_name VARCHAR(64) NOT NULL,
    qos VARCHAR(64) NOT NULL,
    eligible_time BIGINT NOT NULL,
    start_time BIGINT NOT NULL,
    end_time BIGINT NOT NULL,
    state VARCHAR(16) NOT NULL,
    exit_status INT NOT NULL,
    node_list VARCHAR(4096) NOT NULL,
    num_nodes INT NOT NULL,
    alloc_cpus INT NOT NULL,
    tres_req VARCHAR(1024) NOT NULL,
    tres_alloc VARCHAR(1024) NOT NULL,
    time_limit BIGINT NOT NULL,
    work_dir VARCHAR(1024) NOT NULL,
    last_sequence BIGINT NOT NULL,
    CONSTRAINT jobs_key_uq UNIQUE (cluster_id, job_id, submit_time),
    CONSTRAINT jobs_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);

CREATE INDEX jobs_window_ix ON jobs (cluster_id, end_time, eligible_time);
CREATE INDEX jobs_user_ix ON jobs (user_name);
CREATE INDEX jobs_job_id_ix ON jobs (job_id);

CREATE TABLE steps (
    job_ref BIGINT NOT NULL,
    step_id BIGINT NOT NULL,
    step_name VARCHAR(256) NOT NULL,
    state VARCHAR(16) NOT NULL,
    start_time BIGINT NOT NULL,
    end_time BIGINT NOT NULL,
    exit_status INT NOT NULL,
    node_list VARCHAR(4096) NOT NULL,
    num_nodes INT NOT NULL,
    num_tasks INT NOT NULL,
    alloc_cpus INT NOT NULL,
    tres_alloc VARCHAR(1024) NOT NULL,
    last_sequence BIGINT NOT NULL,
    CONSTRAINT steps_pk PRIMARY KEY (job_ref, step_id),
    CONSTRAINT steps_job_fk FOREIGN KEY (job_ref) REFERENCES jobs (id)
);
