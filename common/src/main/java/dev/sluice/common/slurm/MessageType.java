package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * Slurm's message types by name and number, as {@code sdiag} lists the requests a controller
 * served (numbers read off Slurm 22.05's sdiag, one request of each kind). Each names the
 * Sluice request that does the same work.
 */
public enum MessageType {
    MESSAGE_NODE_REGISTRATION_STATUS(1002),
    REQUEST_RECONFIGURE(1003),
    REQUEST_PING(1008),
    REQUEST_LICENSE_INFO(1021),
    REQUEST_BUILD_INFO(2001),
    REQUEST_JOB_INFO(2003),
    REQUEST_JOB_STEP_INFO(2005),
    REQUEST_NODE_INFO(2007),
    REQUEST_PARTITION_INFO(2009),
    REQUEST_SHARE_INFO(2022),
    REQUEST_PRIORITY_FACTORS(2026),
    REQUEST_STATS_INFO(2035),
    REQUEST_UPDATE_JOB(3001),
    REQUEST_UPDATE_NODE(3002),
    REQUEST_UPDATE_PARTITION(3005),
    REQUEST_DELETE_NODE(3014),
    REQUEST_CREATE_NODE(3015),
    REQUEST_RESOURCE_ALLOCATION(4001),
    REQUEST_SUBMIT_BATCH_JOB(4003),
    REQUEST_JOB_STEP_CREATE(5001),
    REQUEST_STEP_COMPLETE(5016),
    REQUEST_COMPLETE_JOB_ALLOCATION(5017),
    REQUEST_KILL_JOB(5032),
    REQUEST_AUTH_TOKEN(5039);

    private final int number;

    MessageType(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /**
     * The message type of a Sluice client request, named by its body ({@code GET_JOBS},
     * {@code SUBMIT_BATCH_JOB}; {@code allocation} for salloc's and srun's submissions); empty for
     * a request Slurm has no message for, or that sdiag does not count (a statistics reset).
     */
    public static Optional<MessageType> ofRequest(String body, boolean allocation) {
        MessageType t = switch (body.toUpperCase(Locale.ROOT)) {
            case "SUBMIT_BATCH_JOB" -> allocation ? REQUEST_RESOURCE_ALLOCATION : REQUEST_SUBMIT_BATCH_JOB;
            case "SIGNAL_JOB" -> REQUEST_KILL_JOB;
            case "GET_JOBS" -> REQUEST_JOB_INFO;
            case "GET_NODES" -> REQUEST_NODE_INFO;
            case "GET_PARTITIONS" -> REQUEST_PARTITION_INFO;
            case "UPDATE_NODE" -> REQUEST_UPDATE_NODE;
            case "GET_CONFIG" -> REQUEST_BUILD_INFO;
            case "PING" -> REQUEST_PING;
            case "UPDATE_JOB" -> REQUEST_UPDATE_JOB;
            case "CREATE_NODE" -> REQUEST_CREATE_NODE;
            case "DELETE_NODE" -> REQUEST_DELETE_NODE;
            case "RECONFIGURE" -> REQUEST_RECONFIGURE;
            case "GENERATE_TOKEN" -> REQUEST_AUTH_TOKEN;
            case "UPDATE_PARTITION" -> REQUEST_UPDATE_PARTITION;
            case "GET_LICENSES" -> REQUEST_LICENSE_INFO;
            case "CREATE_STEP" -> REQUEST_JOB_STEP_CREATE;
            case "STEP_COMPLETE" -> REQUEST_STEP_COMPLETE;
            case "COMPLETE_ALLOCATION" -> REQUEST_COMPLETE_JOB_ALLOCATION;
            case "GET_STEPS" -> REQUEST_JOB_STEP_INFO;
            case "GET_PRIORITIES" -> REQUEST_PRIORITY_FACTORS;
            case "GET_SHARES" -> REQUEST_SHARE_INFO;
            case "GET_STATISTICS" -> REQUEST_STATS_INFO;
            // Slurm's sstat asks the controller for the job's steps, then their nodes.
            case "GET_STEP_STATS" -> REQUEST_JOB_STEP_INFO;
            default -> null;
        };
        return Optional.ofNullable(t);
    }
}
