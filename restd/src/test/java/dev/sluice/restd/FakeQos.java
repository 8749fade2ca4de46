package dev.sluice.restd;

import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListQosResult;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.protocol.v1.QosEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link FakeAccounting}'s QOS: normal as Slurm creates it, high with every setting sluice-dbd
 * keeps; added, changed (description and priority), deleted and listed as the daemon does, each
 * change kept only when committed.
 */
final class FakeQos {
    private final List<QosEntry> qos = new ArrayList<>(List.of(
            QosEntry.newBuilder()
                    .setName("normal")
                    .setDescription("Normal QOS default")
                    .setPreemptMode("cluster")
                    .setUsageFactor(1.0)
                    .build(),
            QosEntry.newBuilder()
                    .setName("high")
                    .setDescription("urgent work")
                    .setPriority(100)
                    .setGraceTimeSeconds(120)
                    .addPreempt("normal")
                    .setPreemptMode("requeue")
                    .setPreemptExemptSeconds(300)
                    .addFlags("DenyOnLimit")
                    .addFlags("NoReserve")
                    .setUsageFactor(2.5)
                    .setGrpTres("cpu=8,gres/gpu=2")
                    .setMaxTresPerUser("cpu=4")
                    .setMaxTresPerNode("cpu=2,gres/gpu=1")
                    .setMaxWallMinutes(60)
                    .setMaxJobsPerUser(2)
                    .setMaxSubmitJobsPerUser(0)
                    .build()));

    AddResult.Builder add(AddQosRequest a) {
        AddResult.Builder added = AddResult.newBuilder();
        for (String name : a.getNamesList()) {
            added.addAdded(name);
            if (a.getCommit()) {
                qos.add(a.getSettings().toBuilder().setName(name).build());
            }
        }
        return added;
    }

    ModifyResult.Builder modify(ModifyQosRequest m) {
        ModifyResult.Builder modified = ModifyResult.newBuilder();
        for (int i = 0; i < qos.size(); i++) {
            if (m.getNamesList().contains(qos.get(i).getName())) {
                modified.addModified(qos.get(i).getName());
                QosEntry.Builder changed = qos.get(i).toBuilder();
                if (m.getGivenList().contains("description")) {
                    changed.setDescription(m.getSettings().getDescription());
                }
                if (m.getGivenList().contains("priority")) {
                    changed.setPriority(m.getSettings().getPriority());
                }
                if (m.getCommit()) {
                    qos.set(i, changed.build());
                }
            }
        }
        return modified;
    }

    DeleteAssocResult.Builder delete(DeleteQosRequest d) {
        List<QosEntry> gone =
                qos.stream().filter(q -> d.getNamesList().contains(q.getName())).toList();
        if (d.getCommit()) {
            qos.removeAll(gone);
        }
        return DeleteAssocResult.newBuilder()
                .addAllDeleted(gone.stream().map(QosEntry::getName).toList());
    }

    ListQosResult.Builder list(ListQosRequest l) {
        return ListQosResult.newBuilder()
                .addAllQos(qos.stream()
                        .filter(q -> l.getNamesCount() == 0 || l.getNamesList().contains(q.getName()))
                        .toList());
    }
}
