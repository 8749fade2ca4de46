-- Advance reservations (Slurm's reservation table), for sreport's reservation report. One row
-- per stretch of a reservation's history: an update that changes what it holds while it is
-- active ends the row (time_end) and starts another with the same resv_id. Times are epoch
-- seconds; tres in the named form (cpu=4); users and accounts comma-separated.
CREATE TABLE reservations (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    cluster_id BIGINT NOT NULL,
    resv_id BIGINT NOT NULL,
    resv_name VARCHAR(128) NOT NULL,
    time_start BIGINT NOT NULL,
    time_end BIGINT NOT NULL,
    nodes VARCHAR(4096) NOT NULL,
    tres VARCHAR(1024) NOT NULL,
    flags VARCHAR(512) NOT NULL,
    users VARCHAR(4096) NOT NULL,
    accounts VARCHAR(4096) NOT NULL,
    -- 1 once deleted: the row is history, a new reservation of that name starts its own.
    deleted INT NOT NULL DEFAULT 0,
    CONSTRAINT reservations_cluster_fk FOREIGN KEY (cluster_id) REFERENCES clusters (id)
);
CREATE INDEX reservations_by_name ON reservations (cluster_id, resv_name);

-- The reservation a job ran in (sacct Reservation, ReservationId); '' and 0 for none.
ALTER TABLE jobs ADD COLUMN resv_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN resv_name VARCHAR(128) NOT NULL DEFAULT '';
