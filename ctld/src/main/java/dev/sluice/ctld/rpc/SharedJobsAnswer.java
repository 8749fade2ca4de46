package dev.sluice.ctld.rpc;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.protocol.v1.GetJobsResponse;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The whole queue as everyone may see it, converted once per published image and named by a
 * version: a hundred clients polling between two batches share one answer instead of each
 * converting every job again, and a client that names the version it holds is told "unchanged"
 * instead of being sent the queue again.
 *
 * <p>Versions start at a random point so that a client holding one from an earlier controller
 * (a REST daemon across a controller restart) is not told "unchanged" by chance. An image that
 * brings no change to the answer (a heartbeat, another partition's change) keeps its version.
 */
final class SharedJobsAnswer {
    private record Answer(ClusterImage image, boolean activeOnly, GetJobsResponse response) {}

    private final AtomicLong versions = new AtomicLong(new SecureRandom().nextLong() >>> 2 | 1);
    private volatile Answer last;

    /**
     * The answer for {@code image}, converting it with {@code convert} only when this image has
     * none yet; {@code knownVersion} (0: none) is the version the client holds.
     */
    GetJobsResponse answer(
            ClusterImage image, boolean activeOnly, long knownVersion, Supplier<GetJobsResponse> convert) {
        Answer held = last;
        if (held == null || held.image() != image || held.activeOnly() != activeOnly) {
            held = convertFor(image, activeOnly, held, convert);
        }
        GetJobsResponse response = held.response();
        if (knownVersion != 0 && knownVersion == response.getVersion()) {
            return GetJobsResponse.newBuilder()
                    .setVersion(response.getVersion())
                    .setUpdateTime(response.getUpdateTime())
                    .setUnchanged(true)
                    .build();
        }
        return response;
    }

    private Answer convertFor(
            ClusterImage image, boolean activeOnly, Answer previous, Supplier<GetJobsResponse> convert) {
        GetJobsResponse fresh = convert.get();
        long version;
        if (previous != null
                && previous.activeOnly() == activeOnly
                && previous.response().getJobsList().equals(fresh.getJobsList())) {
            version = previous.response().getVersion();
            fresh = previous.response();
        } else {
            version = versions.incrementAndGet();
            fresh = fresh.toBuilder().setVersion(version).build();
        }
        Answer answer = new Answer(image, activeOnly, fresh);
        last = answer;
        return answer;
    }
}
