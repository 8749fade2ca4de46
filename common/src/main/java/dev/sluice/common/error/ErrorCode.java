package dev.sluice.common.error;

import java.util.HashMap;
import java.util.Map;

/**
 * Slurm's error numbers and texts (slurm_errno.h / slurm_strerror), kept identical so that
 * commands print what Slurm prints and scripts that match on the text keep working. Only the
 * codes Sluice can produce are listed; numbers are Slurm's so they survive the wire as-is.
 */
public enum ErrorCode {
    SUCCESS(0, "No error"),
    UNEXPECTED(1000, "Unexpected error"),
    NO_CHANGE_IN_DATA(1900, "Data has not changed since time specified"),
    COMMUNICATIONS_CONNECTION_ERROR(1001, "Communication connection failure"),
    PROTOCOL_VERSION_ERROR(1005, "Protocol version has changed, re-link your code"),
    AUTHENTICATION_ERROR(1007, "Protocol authentication error"),
    CONNECTION_REFUSED(1008, "Unable to contact slurm controller (connect failure)"),
    /** The daemon closed the connection without an answer (slurmctld, to a token it refused). */
    SOCKET_ZERO_BYTES(5005, "Zero Bytes were transmitted or received"),
    INVALID_PARTITION_NAME(2000, "Invalid partition name specified"),
    DEFAULT_PARTITION_NOT_SET(2001, "No partition specified or system default partition"),
    ACCESS_DENIED(2002, "Access/permission denied"),
    JOB_MISSING_REQUIRED_PARTITION_GROUP(2003, "User's group not permitted to use this partition"),
    REQUESTED_NODES_NOT_IN_PARTITION(2004, "Requested nodes not in this partition"),
    TOO_MANY_REQUESTED_CPUS(2005, "More processors requested than permitted"),
    INVALID_NODE_COUNT(2006, "Node count specification invalid"),
    ERROR_ON_DESC_TO_RECORD_COPY(2007, "Unable to create job record, try again"),
    JOB_MISSING_SIZE_SPECIFICATION(2008, "Job size specification needs to be provided"),
    JOB_SCRIPT_MISSING(2009, "Job script not specified"),
    USER_ID_MISSING(2010, "Invalid user id"),
    DUPLICATE_JOB_ID(2011, "Duplicate job id"),
    PATHNAME_TOO_LONG(2012, "Pathname of a file, directory or other parameter too long"),
    NOT_TOP_PRIORITY(2013, "Immediate execution impossible, insufficient priority"),
    REQUESTED_NODE_CONFIG_UNAVAILABLE(2014, "Requested node configuration is not available"),
    REQUESTED_PART_CONFIG_UNAVAILABLE(2015, "Requested partition configuration not available now"),
    NODES_BUSY(2016, "Requested nodes are busy"),
    INVALID_JOB_ID(2017, "Invalid job id specified"),
    INVALID_NODE_NAME(2018, "Invalid node name specified"),
    // Fewer CoreCnt= counts than Nodes= names (Slurm 22.05, compat 273).
    INVALID_CORE_CNT(2111, "Core count for reservation node list is not consistent!"),
    WRITING_TO_FILE(2019, "I/O error writing script/environment to file"),
    TRANSITION_STATE_NO_UPDATE(2020, "Job can not be altered now, try again later"),
    ALREADY_DONE(2021, "Job/step already completing or completed"),
    INTERCONNECT_FAILURE(2022, "Error configuring interconnect"),
    INTERCONNECT_BUSY(2023, "Requested interconnect resources are busy"),
    INVALID_TIME_LIMIT(2051, "Invalid time limit specified"),
    JOB_PENDING(2024, "Job is pending execution"),
    BAD_TASK_COUNT(2025, "Task count specification invalid"),
    NOT_SUPPORTED(2036, "Requested operation not supported on this system"),
    PRIO_RESET_FAIL(2095, "Changes to job priority are not persistent, change nice instead"),
    JOB_NOT_PENDING(2073, "Job is no longer pending execution"),
    JOB_NOT_RUNNING(2085, "Job is not running"),
    JOB_NOT_SUSPENDED(2087, "Job is not suspended"),
    INVALID_GRES(2072, "Invalid generic resource (gres) specification"),
    PARTITION_NOT_AVAIL(2070, "Required partition not available (inactive or drain)"),
    INVALID_ACCOUNT(2045, "Invalid account or account/partition combination specified"),
    INVALID_QOS(2066, "Invalid qos specification"),
    INVALID_WCKEY(2057, "Invalid wckey specification"),
    ACCOUNTING_POLICY(2050, "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)"),
    INVALID_FEATURE(2029, "Invalid feature specification"),
    INVALID_LICENSES(2048, "Invalid license specification"),
    RESERVATION_ACCESS(2052, "Access denied to requested reservation"),
    RESERVATION_INVALID(2053, "Requested reservation is invalid"),
    INVALID_TIME_VALUE(2054, "Invalid time specified"),
    RESERVATION_BUSY(2055, "Requested reservation is in use"),
    RESERVATION_NOT_USABLE(2056, "Requested reservation not usable now"),
    RESERVATION_OVERLAP(2058, "Requested reservation overlaps with another reservation"),
    // The text is Slurm 22.05's (compat 256); the number is Sluice's own, not checked against
    // slurm_errno.h.
    RESERVATION_EMPTY(2093, "Reservation request lacks users, groups or accounts"),
    DISABLED(2037, "Requested operation is presently disabled"),
    DEPENDENCY(2038, "Job dependency problem"),
    BATCH_ONLY(2039, "Only batch jobs are accepted or processed"),
    JOB_HELD(2042, "Job is in held state, pending scheduler release"),
    INVALID_ARRAY(2081, "Invalid job array specification"),
    RESERVATION_NAME_DUP(2082, "Duplicate reservation name"),
    JOB_FINISHED(2084, "Job has already finished"),
    INVALID_TRES(2115, "Invalid Trackable RESource (TRES) specification"),
    STATE_SAVE_FAILED(2300, "Unable to save state: the controller refuses new work until it can"),
    DB_CONNECTION(7000, "Unable to connect to database"),
    JOB_NOT_FEDERATED(7103, "Not a valid federated job"),
    AUTH_CRED_INVALID(6000, "Invalid authentication credential"),
    AUTH_UNABLE_TO_GENERATE_TOKEN(6009, "Token Generation failed."),
    INVALID_ARGUMENT(22, "Invalid argument");

    private static final Map<Integer, ErrorCode> BY_NUMBER = new HashMap<>();

    static {
        for (ErrorCode code : values()) {
            BY_NUMBER.put(code.number, code);
        }
    }

    private final int number;
    private final String text;

    ErrorCode(int number, String text) {
        this.number = number;
        this.text = text;
    }

    public int number() {
        return number;
    }

    /** Slurm's {@code slurm_strerror} text for this code. */
    public String text() {
        return text;
    }

    public static ErrorCode fromNumber(int number) {
        return BY_NUMBER.getOrDefault(number, UNEXPECTED);
    }
}
