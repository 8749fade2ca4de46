-- sacctmgr's PreemptExemptTime of a QOS, in seconds (NULL: the cluster's PreemptExemptTime).
ALTER TABLE acct_qos ADD COLUMN preempt_exempt_seconds BIGINT;
