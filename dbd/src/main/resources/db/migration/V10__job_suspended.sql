-- Seconds a job spent suspended (sacct Suspended): scontrol suspend, preemption, gang turns.
ALTER TABLE jobs ADD COLUMN suspended BIGINT NOT NULL DEFAULT 0;
