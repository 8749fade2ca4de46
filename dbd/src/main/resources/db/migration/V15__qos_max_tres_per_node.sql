-- A QOS's MaxTRESPerNode (MaxTRESPN; NULL: none): what a job may ask on each of its nodes.
ALTER TABLE acct_qos ADD COLUMN max_tres_per_node VARCHAR(1024);
