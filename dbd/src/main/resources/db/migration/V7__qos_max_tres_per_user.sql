-- sacctmgr's MaxTRESPerUser (MaxTRESPU) of a QOS: kept and shown, not yet enforced.
ALTER TABLE acct_qos ADD COLUMN max_tres_per_user VARCHAR(1024);
