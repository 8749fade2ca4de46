-- What sacct shows beyond the first version's columns: the CPUs and nodes a job asked for
-- (ReqCPUS, ReqNodes), who cancelled it (the state "CANCELLED by <uid>"; -1: nobody), its
-- priority, the reason it last waited for, and its constraints. Rows from before keep the
-- defaults.
ALTER TABLE jobs ADD COLUMN req_cpus INT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN req_nodes INT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN requid BIGINT NOT NULL DEFAULT -1;
ALTER TABLE jobs ADD COLUMN priority BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN state_reason VARCHAR(64) NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN constraints VARCHAR(1024) NOT NULL DEFAULT '';
