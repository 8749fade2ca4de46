package dev.sluice.cli.command.squeue;

import dev.sluice.cli.view.JobSelector;
import dev.sluice.cli.view.JobStates;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.protocol.v1.JobState;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which jobs squeue shows. Empty sets mean "any". Without {@code -t} only pending, running and
 * suspended jobs are listed, also those named with {@code -j}, as Slurm 22.05 does (a finished
 * job's id prints the header alone).
 *
 * @param users user names and numeric uids as typed
 * @param nodes host names ({@code -w}, already expanded); a job matches when it holds one of them
 * @param completingAsked {@code -t CG} (or COMPLETING): jobs whose processes are still being killed
 * @param allStates {@code -t all}
 * @param licenses {@code -L}: only jobs asking for one of these licenses, by name ({@code -L foo}
 *     matches {@code foo:2,bar}; {@code fo} and {@code foo:2} match nothing, as in Slurm 22.05)
 * @param reservation {@code -R}: only jobs in this reservation; null for any
 */
record JobFilter(
        List<JobSelector> jobIds,
        Set<String> users,
        Set<String> partitions,
        Set<JobState> states,
        boolean completingAsked,
        boolean allStates,
        Set<String> names,
        Set<String> accounts,
        Set<String> qos,
        Set<String> nodes,
        Set<String> licenses,
        String reservation) {

    /**
     * Only jobs not yet finished can pass: the controller need not send the others. A job named
     * with {@code -j} is still asked for (the controller answers "Invalid job id" only for one
     * it does not know), and left out here when it has finished.
     */
    boolean activeOnly() {
        return !allStates && states.isEmpty() && !completingAsked && jobIds.isEmpty();
    }

    boolean test(JobView job) {
        if (!licenses.isEmpty() && !asksForOneOf(job.spec().getLicenses())) {
            return false;
        }
        if (reservation != null && !reservation.equals(job.spec().getReservation())) {
            return false;
        }
        if (!jobIds.isEmpty() && jobIds.stream().noneMatch(s -> s.matches(job))) {
            return false;
        }
        if (!allStates) {
            if (!states.isEmpty() || completingAsked) {
                if (!states.contains(job.state()) && !(completingAsked && job.completing())) {
                    return false;
                }
            } else if (!JobStates.isActive(job.state()) && !job.completing()) {
                // Slurm lists completing jobs by default too.
                return false;
            }
        }
        if (!users.isEmpty() && !users.contains(job.userName()) && !users.contains(Long.toString(job.uid()))) {
            return false;
        }
        if (!partitions.isEmpty() && !partitions.contains(job.partition())) {
            return false;
        }
        if (!names.isEmpty() && !names.contains(job.name())) {
            return false;
        }
        if (!accounts.isEmpty() && !accounts.contains(job.spec().getAccount())) {
            return false;
        }
        if (!qos.isEmpty() && !qos.contains(job.spec().getQos())) {
            return false;
        }
        if (!nodes.isEmpty()) {
            String list = job.info().getNodeList();
            if (list.isEmpty()) {
                return false;
            }
            Set<String> held = new HashSet<>(expand(list));
            return nodes.stream().anyMatch(held::contains);
        }
        return true;
    }

    private boolean asksForOneOf(String jobLicenses) {
        try {
            return Licenses.parse(jobLicenses).counts().keySet().stream().anyMatch(licenses::contains);
        } catch (IllegalArgumentException e) {
            return false; // the controller accepted it, so this does not happen
        }
    }

    private static List<String> expand(String list) {
        try {
            return HostList.expand(list);
        } catch (IllegalArgumentException e) {
            return List.of(list);
        }
    }
}
