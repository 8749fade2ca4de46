-- Per hour, per user's wckey, per TRES: allocated TRES-seconds (sreport's wckey reports), in the
-- manner of slurmdbd's <cluster>_wckey_usage_hour_table but keyed by wckey and user names. A job
-- that took its user's default wckey counts under it. Only non-zero rows.
CREATE TABLE usage_wckey_hour (
    cluster_id BIGINT NOT NULL,
    time_start BIGINT NOT NULL,
    wckey VARCHAR(64) NOT NULL,
    user_name VARCHAR(64) NOT NULL,
    tres_id INT NOT NULL,
    alloc_secs BIGINT NOT NULL,
    CONSTRAINT usage_wckey_hour_pk PRIMARY KEY (cluster_id, time_start, wckey, user_name, tres_id),
    CONSTRAINT usage_wckey_hour_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);
