-- An association's MaxTRESPerNode (NULL: none, inherited from the parent account): what a job
-- may ask on each of its nodes.
ALTER TABLE acct_associations ADD COLUMN max_tres_per_node VARCHAR(1024);
