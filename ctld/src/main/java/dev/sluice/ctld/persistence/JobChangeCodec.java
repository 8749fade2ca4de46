package dev.sluice.ctld.persistence;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.protocol.v1.journal.JournalJobChange;
import dev.sluice.protocol.v1.journal.JournalWckey;

/**
 * {@code scontrol update job}'s changes in the journal: each kind its own field, so replay reads
 * a typed value back instead of parsing text. Journals written before kept a map of field name to
 * text; {@link #legacy} still reads those.
 */
final class JobChangeCodec {
    private JobChangeCodec() {}

    static JournalJobChange encode(JobChange change) {
        JournalJobChange.Builder b = JournalJobChange.newBuilder();
        switch (change) {
            case JobChange.TimeLimit c -> b.setTimeLimit(c.minutes());
            case JobChange.Name c -> b.setName(c.name());
            case JobChange.Comment c -> b.setComment(c.comment());
            case JobChange.Nice c -> b.setNice(c.nice());
            case JobChange.Priority c -> b.setPriority(c.priority());
            case JobChange.MinNodes c -> b.setMinNodes(c.nodes());
            case JobChange.MaxNodes c -> b.setMaxNodes(c.nodes());
            case JobChange.Tasks c -> b.setNumTasks(c.tasks());
            case JobChange.PartitionName c -> b.setPartition(c.partition());
            case JobChange.ArrayThrottle c -> b.setArrayThrottle(c.throttle());
            case JobChange.LicenseList c -> b.setLicenses(c.licenses().toString());
            case JobChange.ReservationName c -> b.setReservation(c.reservation());
            case JobChange.WckeyName c ->
                b.setWckey(JournalWckey.newBuilder()
                        .setName(c.wckey().name())
                        .setUserDefault(c.wckey().defaulted()));
        }
        return b.build();
    }

    /** @throws IllegalArgumentException for a change this binary does not know (a newer journal) */
    static JobChange decode(JournalJobChange c) {
        return switch (c.getChangeCase()) {
            case TIME_LIMIT -> new JobChange.TimeLimit(c.getTimeLimit());
            case NAME -> new JobChange.Name(c.getName());
            case COMMENT -> new JobChange.Comment(c.getComment());
            case NICE -> new JobChange.Nice(c.getNice());
            case PRIORITY -> new JobChange.Priority(c.getPriority());
            case MIN_NODES -> new JobChange.MinNodes(c.getMinNodes());
            case MAX_NODES -> new JobChange.MaxNodes(c.getMaxNodes());
            case NUM_TASKS -> new JobChange.Tasks(c.getNumTasks());
            case PARTITION -> new JobChange.PartitionName(c.getPartition());
            case ARRAY_THROTTLE -> new JobChange.ArrayThrottle(c.getArrayThrottle());
            case LICENSES -> new JobChange.LicenseList(Licenses.parse(c.getLicenses()));
            case RESERVATION -> new JobChange.ReservationName(c.getReservation());
            case WCKEY ->
                new JobChange.WckeyName(
                        c.getWckey().getUserDefault()
                                ? JobWckey.userDefault(c.getWckey().getName())
                                : JobWckey.asked(c.getWckey().getName()));
            case CHANGE_NOT_SET ->
                throw new IllegalArgumentException("a job change of a kind this binary does not know");
        };
    }

    /**
     * A change as journals before the typed form kept it: scontrol's field name and the value's text.
     *
     * @throws IllegalArgumentException for a key or value this binary does not understand
     */
    static JobChange legacy(String key, String text) {
        return switch (key) {
            case "TimeLimit" -> new JobChange.TimeLimit(Long.parseLong(text));
            case "Name" -> new JobChange.Name(text);
            case "Comment" -> new JobChange.Comment(text);
            case "Nice" -> new JobChange.Nice(Integer.parseInt(text));
            case "Priority" -> new JobChange.Priority(Long.parseLong(text));
            case "MinNodes" -> new JobChange.MinNodes(Integer.parseInt(text));
            case "MaxNodes" -> new JobChange.MaxNodes(Integer.parseInt(text));
            case "NumTasks" -> new JobChange.Tasks(Integer.parseInt(text));
            case "Partition" -> new JobChange.PartitionName(text);
            case "ArrayTaskThrottle" -> new JobChange.ArrayThrottle(Integer.parseInt(text));
            case "Licenses" -> new JobChange.LicenseList(Licenses.parse(text));
            case "Reservation" -> new JobChange.ReservationName(text);
            case "WCKey" -> new JobChange.WckeyName(JobWckey.read(text));
            default -> throw new IllegalArgumentException("unknown job change " + key);
        };
    }
}
