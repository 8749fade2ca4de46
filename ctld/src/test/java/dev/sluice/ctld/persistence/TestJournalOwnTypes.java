package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.ReservationCores;
import dev.sluice.protocol.v1.ReservationInfo;
import dev.sluice.protocol.v1.journal.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The journal's own messages (JournalGresGrant, JournalJobState, JournalLegacyReservation) took the
 * place of the commands' GresGrant, JobState and ReservationInfo in its records. Journals written
 * before hold those; {@link #OLD} is the journal's schema as it was then, with the commands' types,
 * and entries written with it recover the same, byte for byte.
 */
class TestJournalOwnTypes {
    private static final FileDescriptor OLD = oldSchema();

    @Test
    void aJobEndWrittenWithTheCommandsStateReadsTheSame() throws InvalidProtocolBufferException {
        for (JobState state :
                List.of(JobState.values()).stream().filter(JobState::isFinished).toList()) {
            Message oldEntry = entry(
                    9,
                    1_700_000_000L,
                    "job_ended",
                    message("JobEndedRecord")
                            .setField(field("JobEndedRecord", "job_id"), 7)
                            .setField(
                                    field("JobEndedRecord", "state"),
                                    dev.sluice.protocol.v1.JobState.valueOf(state.name())
                                            .getValueDescriptor())
                            .setField(field("JobEndedRecord", "exit_status"), 15)
                            .setField(field("JobEndedRecord", "reason"), "TimeLimit")
                            .setField(field("JobEndedRecord", "requid"), 1001)
                            .build());
            var ended = new StateRecord.JobEnded(7, state, 15, JobReason.TIME_LIMIT, 1_700_000_000L, 1001);
            assertReadsAndWritesTheSame(oldEntry, ended);
        }
    }

    @Test
    void anAllocationWithTheCommandsGresGrantsReadsTheSame() throws InvalidProtocolBufferException {
        Message node = message("NodeAllocation")
                .setField(field("NodeAllocation", "node"), "g1")
                .setField(field("NodeAllocation", "cpus"), 4)
                .setField(field("NodeAllocation", "memory_mb"), 2048L)
                .setField(field("NodeAllocation", "tasks"), 2)
                .addRepeatedField(
                        field("NodeAllocation", "gres"),
                        dev.sluice.protocol.v1.GresGrant.newBuilder()
                                .setName("gpu")
                                .setType("a100")
                                .addAllIndices(List.of(0, 2))
                                .setCount(2)
                                .build())
                .addRepeatedField(field("NodeAllocation", "cores"), 0)
                .addRepeatedField(field("NodeAllocation", "cores"), 1)
                .build();
        Message oldEntry = entry(
                3,
                50,
                "job_started",
                message("JobStartedRecord")
                        .setField(field("JobStartedRecord", "job_id"), 12)
                        .addRepeatedField(field("JobStartedRecord", "nodes"), node)
                        .setField(field("JobStartedRecord", "time_limit_minutes"), 30)
                        .setField(field("JobStartedRecord", "partition"), "gpu")
                        .build());
        var share = new Allocation.NodeShare(
                "g1", 4, 2048, 2, List.of(new GresGrant("gpu", "a100", List.of(0, 2), 2)), List.of(0, 1));
        assertReadsAndWritesTheSame(
                oldEntry, new StateRecord.JobStarted(12, new Allocation(List.of(share)), "gpu", 30, 50));
    }

    @Test
    void aStepWrittenWithTheCommandsStateReadsTheSameInEveryState() throws InvalidProtocolBufferException {
        for (JobState state : JobState.values()) {
            Message oldEntry = entry(
                    4,
                    80,
                    "step_recorded",
                    message("StepRecordedRecord")
                            .setField(field("StepRecordedRecord", "job_id"), 12)
                            .setField(field("StepRecordedRecord", "name"), "hostname")
                            .setField(
                                    field("StepRecordedRecord", "state"),
                                    dev.sluice.protocol.v1.JobState.valueOf(state.name())
                                            .getValueDescriptor())
                            .setField(field("StepRecordedRecord", "start_time"), 60L)
                            .setField(field("StepRecordedRecord", "end_time"), 70L)
                            .setField(field("StepRecordedRecord", "node_list"), "n1")
                            .setField(field("StepRecordedRecord", "num_nodes"), 1)
                            .setField(field("StepRecordedRecord", "num_tasks"), 1)
                            .setField(field("StepRecordedRecord", "num_cpus"), 1)
                            .setField(field("StepRecordedRecord", "tres"), "cpu=1")
                            .build());
            var step = new JobStep(0, "hostname", state, 60, 70, 0, "n1", 1, 1, 1, "cpu=1");
            assertReadsAndWritesTheSame(oldEntry, new StateRecord.StepRecorded(12, step, 80));
        }
    }

    /** Entries from before the journal's ReservationRecord hold the commands' ReservationInfo. */
    @Test
    void aReservationWrittenAsTheCommandsReservationInfoReadsTheSame() throws InvalidProtocolBufferException {
        ReservationInfo info = ReservationInfo.newBuilder()
                .setName("half")
                .setStartTime(1_000_000)
                .setEndTime(1_003_600)
                .addAllNodes(List.of("n1", "n2"))
                .setPartition("p")
                .addUsers("alice")
                .setUsersExcluded(true)
                .addAccounts("physics")
                .addAllFlags(List.of("MAINT", "SPEC_NODES"))
                .setCoreCount(5)
                .setId(9)
                .addCores(ReservationCores.newBuilder().setNode("n1").addAllIds(List.of(0, 1, 2, 3)))
                .addCores(ReservationCores.newBuilder().setNode("n2").addIds(0))
                .build();
        Message oldEntry = entry(
                5,
                999,
                "reservation_saved",
                message("ReservationSavedRecord")
                        .setField(field("ReservationSavedRecord", "reservation"), info)
                        .build());
        Reservation half = new Reservation(
                "half",
                9,
                1_000_000,
                1_003_600,
                new Reservation.Holding(
                        List.of("n1", "n2"), "p", 5, Map.of("n1", List.of(0, 1, 2, 3), "n2", List.of(0))),
                new Reservation.Access(List.of("alice"), true, List.of("physics")),
                Set.of(ReservationFlag.MAINT, ReservationFlag.SPEC_NODES));

        JournalEntry read = JournalEntry.parseFrom(oldEntry.toByteArray());
        assertThat(RecordCodec.decode(read)).isEqualTo(new StateRecord.ReservationSaved(half, 999));
        // What it holds is the commands' message, byte for byte.
        assertThat(read.getReservationSaved().getReservation().toByteString()).isEqualTo(info.toByteString());
    }

    /** The old entry decodes to the record, and the record is journaled again as those bytes. */
    private static void assertReadsAndWritesTheSame(Message oldEntry, StateRecord record)
            throws InvalidProtocolBufferException {
        JournalEntry read = JournalEntry.parseFrom(oldEntry.toByteArray());
        assertThat(RecordCodec.decode(read)).isEqualTo(record);
        JournalEntry written = RecordCodec.encode(read.getSequence(), record);
        assertThat(written.toByteString()).isEqualTo(oldEntry.toByteString());
        assertThat(DynamicMessage.parseFrom(OLD.findMessageTypeByName("JournalEntry"), written.toByteString()))
                .isEqualTo(oldEntry);
    }

    private static Message entry(long sequence, long time, String record, Message body) {
        return message("JournalEntry")
                .setField(field("JournalEntry", "sequence"), sequence)
                .setField(field("JournalEntry", "time"), time)
                .setField(field("JournalEntry", record), body)
                .build();
    }

    private static DynamicMessage.Builder message(String type) {
        return DynamicMessage.newBuilder(OLD.findMessageTypeByName(type));
    }

    private static com.google.protobuf.Descriptors.FieldDescriptor field(String type, String name) {
        return OLD.findMessageTypeByName(type).findFieldByName(name);
    }

    /** journal.proto with the commands' types where it has its own now: the schema journals were written with. */
    private static FileDescriptor oldSchema() {
        Map<String, String> before = Map.of(
                ".sluice.v1.JournalGresGrant", ".sluice.v1.GresGrant",
                ".sluice.v1.JournalJobState", ".sluice.v1.JobState",
                ".sluice.v1.JournalLegacyReservation", ".sluice.v1.ReservationInfo");
        FileDescriptor now = JournalEntry.getDescriptor().getFile();
        List<DescriptorProto> messages = new ArrayList<>();
        for (DescriptorProto m : now.toProto().getMessageTypeList()) {
            if (m.getName().equals("JournalGresGrant") || m.getName().equals("JournalLegacyReservation")) {
                continue;
            }
            DescriptorProto.Builder b = m.toBuilder();
            for (FieldDescriptorProto.Builder f : b.getFieldBuilderList()) {
                if (before.containsKey(f.getTypeName())) {
                    f.setTypeName(before.get(f.getTypeName()));
                }
            }
            messages.add(b.build());
        }
        FileDescriptorProto.Builder old = now.toProto().toBuilder()
                .setName("sluice/v1/journal-before.proto")
                .clearMessageType()
                .addAllMessageType(messages)
                .clearEnumType();
        try {
            return FileDescriptor.buildFrom(old.build(), now.getDependencies().toArray(FileDescriptor[]::new));
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException(e);
        }
    }
}
