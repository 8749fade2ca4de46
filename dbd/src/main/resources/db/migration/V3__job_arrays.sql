-- Job arrays: the id sacct prints (6_1, 6_[2-4%2]) and the array a job row belongs to, so that
-- sacct -j 6 finds every task. Plain jobs keep the defaults.
ALTER TABLE jobs ADD COLUMN display_id VARCHAR(64) NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN array_job_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN array_task_id BIGINT NOT NULL DEFAULT -1;
CREATE INDEX jobs_array_ix ON jobs (array_job_id);
