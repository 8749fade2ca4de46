package dev.sluice.ctld.dispatch;

import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.JobSpec;

/**
 * The wire form of the last job request launched, kept for the next launch of the same request:
 * an array's tasks share their array's request (the same object), and a pass that starts
 * thousands of them would otherwise convert its environment and script once per task. Requests
 * and the wire messages are immutable, so a kept conversion is always the request's own.
 */
final class WireSpecs {
    private record Converted(JobRequest request, JobSpec spec) {}

    private volatile Converted last;

    JobSpec of(JobRequest request) {
        Converted c = last;
        if (c != null && c.request() == request) {
            return c.spec();
        }
        JobSpec spec = WireMapper.toWire(request);
        last = new Converted(request, spec);
        return spec;
    }
}
