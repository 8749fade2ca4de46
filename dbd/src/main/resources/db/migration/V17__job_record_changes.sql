-- What sacctmgr modify job (and REST POST job/{id}, jobs/) changes on a job's record: a derived
-- exit code set by hand (a raw wait status; NULL: the highest of the job's srun steps, as
-- before), and the comment, admin comment and system comment sacct shows (Comment,
-- AdminComment, SystemComment), '' until one is set.
ALTER TABLE jobs ADD COLUMN derived_ec_set BIGINT NULL;
ALTER TABLE jobs ADD COLUMN comment TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN admin_comment TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN system_comment TEXT NOT NULL DEFAULT '';
