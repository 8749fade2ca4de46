package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * {@code [type:]count} as {@code --gpus}, {@code --gpus-per-node} and {@code --gpus-per-task}
 * take it, parsed once: the text as typed (Slurm echoes it in {@code TresPerJob=} and friends),
 * the GPU type (empty: any) and the count (0: not given).
 */
public record GpuCount(String text, String type, long count) {
    public static final GpuCount NONE = new GpuCount("", "", 0);

    public GpuCount {
        requireNonNull(text, "text is null");
        requireNonNull(type, "type is null");
        if (count < 0) {
            throw new IllegalArgumentException("negative GPU count: " + count);
        }
    }

    /** @throws IllegalArgumentException when the count is not a number or negative */
    public static GpuCount parse(String text) {
        if (text == null || text.isBlank()) {
            return text == null || text.isEmpty() ? NONE : new GpuCount(text, "", 0);
        }
        String t = text.strip();
        int colon = t.lastIndexOf(':');
        String type = colon < 0 ? "" : t.substring(0, colon);
        // A leading "gpu:" names the GRES; "gpu:1" alone is type "gpu", as Slurm reads
        // --gpus=[type:]count, and is refused where no GPU has that type.
        if (type.startsWith("gpu:")) {
            type = type.substring(4);
        }
        return new GpuCount(text, type, Long.parseLong(t.substring(colon + 1)));
    }

    public boolean isGiven() {
        return count > 0;
    }
}
