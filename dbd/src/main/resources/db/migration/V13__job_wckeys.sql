-- A job's wckey (sacct WCKey) in Slurm's form: "*NAME" when it took its user's default, "*"
-- when the user had none; '' when wckeys were not tracked.
ALTER TABLE jobs ADD COLUMN wckey VARCHAR(128) NOT NULL DEFAULT '';

-- The last wckey id handed out. slurmdbd numbers wckeys as it adds them and never hands a
-- number out again, even once the wckey is gone (compat 219: ids 7, 8, 9 after six added and
-- deleted); a counter in the table's transaction also leaves a rolled-back preview's unused.
CREATE TABLE acct_wckey_ids (
    id INT NOT NULL PRIMARY KEY,
    last_id INT NOT NULL
);
INSERT INTO acct_wckey_ids (id, last_id) SELECT 1, COALESCE(MAX(id), 0) FROM acct_wckeys;
