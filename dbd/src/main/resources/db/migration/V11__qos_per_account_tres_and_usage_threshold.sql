-- A QOS's MaxTRESPerAccount (MaxTRESPA) and UsageThreshold (UsageThres; NULL: none): kept and
-- shown, not yet enforced.
ALTER TABLE acct_qos ADD COLUMN max_tres_per_account VARCHAR(1024);
ALTER TABLE acct_qos ADD COLUMN usage_threshold DOUBLE;
