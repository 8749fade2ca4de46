package dev.sluice.ctld.accounting;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.loop.JournalObserver;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.auth.DaemonAuth;
import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's accounting: derives records from what the loop journals, keeps them in the
 * {@link Outbox} within the loop's own batch sync, and ships them with an {@link OutboxShipper}.
 */
public final class AccountingPipeline implements JournalObserver, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AccountingPipeline.class);
    /** The outbox's folder inside StateSaveLocation. */
    public static final String DIRECTORY = "accounting";

    private final Outbox outbox;
    private final OutboxShipper shipper;
    private final boolean memoryConsumable;
    private final Set<String> trackedLicenses;
    /** The tracked licenses' totals: part of the cluster's size. */
    private final Map<String, Long> licenseTotals;
    /** Partitions' smallest RealMemory, worked out once until nodes change (loop thread only). */
    private final Map<String, Long> partitionMemory = new HashMap<>();

    /** When this controller opened its accounting (epoch seconds): its own start is no earlier. */
    private final long openedAt;

    private volatile PolicyPuller policy;
    /** The TRES totals (and down part) last put in the outbox; null until this start's first (loop thread only). */
    private String sentSize;
    /** This loop batch's records until its sync (loop thread only). */
    private final RecordBatch batch = new RecordBatch();
    /** The state the loop applies records to, as last seen (loop thread only). */
    private ClusterView state;

    private AccountingPipeline(
            Outbox outbox,
            OutboxShipper shipper,
            boolean memoryConsumable,
            Set<String> trackedLicenses,
            Map<String, Long> licenseTotals,
            long openedAt) {
        this.outbox = outbox;
        this.shipper = shipper;
        this.memoryConsumable = memoryConsumable;
        this.trackedLicenses = trackedLicenses;
        this.licenseTotals = licenseTotals;
        this.openedAt = openedAt;
    }

    /**
     * @param journalThrough the journal sequence recovery ended at (outbox records past it are cut)
     * @param memoryConsumable whether jobs are allocated memory (what their AllocTRES count)
     * @param licenses slurm.conf's Licenses: those AccountingStorageTRES names count in the
     *     cluster's TRES
     */
    public static AccountingPipeline open(
            AccountingSettings settings,
            Path stateSaveLocation,
            long journalThrough,
            InstantSource clock,
            DaemonAuth auth,
            boolean memoryConsumable,
            Licenses licenses)
            throws IOException {
        requireNonNull(settings, "settings is null");
        Outbox outbox = Outbox.open(stateSaveLocation.resolve(DIRECTORY), journalThrough, clock);
        log.info(
                "accounting: shipping to sluice-dbd at {}:{} as cluster {}; {} records waiting in the outbox",
                settings.host(),
                settings.grpcPort(),
                settings.cluster(),
                outbox.depth());
        return new AccountingPipeline(
                outbox,
                new OutboxShipper(outbox, settings.cluster(), settings.host(), settings.grpcPort(), auth),
                memoryConsumable,
                settings.trackedLicenses(),
                licenses.counts().entrySet().stream()
                        .filter(e -> settings.trackedLicenses().contains(e.getKey()))
                        .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue)),
                clock.instant().getEpochSecond());
    }

    /** Runs (from {@link #start()}) and closes the associations/QOS poller with the shipper. */
    public void keepPolicy(PolicyPuller puller) {
        this.policy = requireNonNull(puller, "puller is null");
    }

    public void start() {
        shipper.start();
        if (policy != null) {
            policy.start();
        }
    }

    /** Records not yet acknowledged by sluice-dbd. */
    public int depth() {
        return outbox.depth();
    }

    @Override
    public void applying(long sequence, StateRecord record, ClusterView state) {
        batch.applying(sequence, record, state, () -> site(state));
    }

    @Override
    public void applied(long sequence, StateRecord record, ClusterView state) {
        if (AccountingEvents.changesSize(record) || startsThisController(record)) {
            partitionMemory.clear();
            String size = AccountingEvents.clusterTres(state.nodes(), licenseTotals);
            String down = AccountingEvents.downTres(state.nodes());
            // A start sends the totals again (dbd ignores an equal one), changed or not.
            if (!(size + '/' + down).equals(sentSize)) {
                batch.add(sequence, List.of(AccountingEvents.clusterSize(record.time(), size, down)));
                sentSize = size + '/' + down;
            }
        }
        ReservationEvents.of(record).ifPresent(r -> batch.add(sequence, List.of(r)));
        batch.applied(sequence, record, state, () -> site(state));
        this.state = state;
    }

    /**
     * This controller's own start (not an earlier one journaled with it on upgrade): Slurm's
     * slurmctld registers its cluster TRES with slurmdbd when it starts, before any node does,
     * and with them the licenses AccountingStorageTRES names, so that sacctmgr show tres lists
     * license/foo as soon as the controller is up (compat 287). Nodes known from the state
     * register without a record of their own, so their records would not send it.
     */
    private boolean startsThisController(StateRecord record) {
        return record instanceof StateRecord.ControllerStarted s && s.time() >= openedAt;
    }

    private AccountingEvents.Site site(ClusterView state) {
        return new AccountingEvents.Site(
                memoryConsumable,
                p -> partitionMemory.computeIfAbsent(p, n -> AccountingEvents.partitionMemory(state, n)),
                state::priority,
                name -> state.reservations().byName().containsKey(name)
                        ? state.reservations().byName().get(name).id()
                        : 0,
                trackedLicenses);
    }

    @Override
    public void beforeSync() throws IOException {
        if (!batch.isEmpty()) {
            batch.flush(state, site(state), outbox::append);
        }
        outbox.sync();
    }

    @Override
    public void synced(long sequence) {
        outbox.published(sequence);
    }

    @Override
    public void close() {
        if (policy != null) {
            policy.close();
        }
        shipper.close();
        try {
            outbox.close();
        } catch (IOException e) {
            log.warn("accounting: closing the outbox: {}", e.getMessage());
        }
    }
}
