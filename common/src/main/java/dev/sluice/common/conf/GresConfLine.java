package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One resource line of {@code gres.conf} (gres.conf(5)), checked and expanded. Built with {@link
 * #builder}.
 *
 * @param nodeNames the nodes the line applies to ({@code NodeName=}, expanded); empty = every node
 * @param name the GRES name ({@code gpu}, {@code mps}, {@code shard}, ...)
 * @param type {@code Type=}, if any
 * @param count {@code Count=} with K/M/G/T/P suffixes applied; default the number of files, else 1
 * @param devices its device files
 * @param affinity the cores and devices it is close to
 * @param options how Slurm treats it
 * @param source the line
 */
public record GresConfLine(
        List<String> nodeNames,
        String name,
        Optional<String> type,
        long count,
        Devices devices,
        Affinity affinity,
        Options options,
        ConfSource source) {

    public GresConfLine {
        nodeNames = List.copyOf(nodeNames);
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(devices, "devices is null");
        requireNonNull(affinity, "affinity is null");
        requireNonNull(options, "options is null");
        requireNonNull(source, "source is null");
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public boolean appliesTo(String nodeName) {
        return nodeNames.isEmpty() || nodeNames.contains(nodeName);
    }

    /** Its device files ({@code File=}); empty for a count-only line. */
    public List<String> files() {
        return devices.files();
    }

    /** The count each {@code File=} device holds (a GPU's MPS or shard share); the whole count without files. */
    public long countPerFile() {
        return devices.files().isEmpty() ? count : count / devices.files().size();
    }

    /**
     * @param files device files of {@code File=}, expanded ({@code /dev/nvidia[0-3]} gives four)
     * @param multipleFiles device files of {@code MultipleFiles=} (one MIG device made of several
     *     files)
     */
    public record Devices(List<String> files, List<String> multipleFiles) {

        public static final Devices NONE = new Devices(List.of(), List.of());

        public Devices {
            files = List.copyOf(files);
            multipleFiles = List.copyOf(multipleFiles);
        }
    }

    /**
     * @param cores {@code Cores=} (or the old {@code CPUs=}) expanded to core indices; empty = any
     * @param links {@code Links=} as written, empty when absent
     */
    public record Affinity(List<Integer> cores, String links) {

        public static final Affinity NONE = new Affinity(List.of(), "");

        public Affinity {
            cores = List.copyOf(cores);
            requireNonNull(links, "links is null");
        }
    }

    /**
     * @param flags {@code Flags=} items as written ({@code CountOnly}, {@code explicit}, ...)
     * @param autoDetect an in-line {@code AutoDetect=} for these nodes, if any
     */
    public record Options(List<String> flags, Optional<String> autoDetect) {

        public static final Options NONE = new Options(List.of(), Optional.empty());

        public Options {
            flags = List.copyOf(flags);
            requireNonNull(autoDetect, "autoDetect is null");
        }

        public boolean hasFlag(String flag) {
            return flags.stream().anyMatch(f -> f.equalsIgnoreCase(flag));
        }
    }

    /** Assembles a {@link GresConfLine}; anything not set is absent. */
    public static final class Builder {
        private final String name;
        private List<String> nodeNames = List.of();
        private Optional<String> type = Optional.empty();
        private long count = 1;
        private Devices devices = Devices.NONE;
        private Affinity affinity = Affinity.NONE;
        private Options options = Options.NONE;
        private ConfSource source = new ConfSource("", 0);

        private Builder(String name) {
            this.name = requireNonNull(name, "name is null");
        }

        public Builder nodeNames(List<String> value) {
            this.nodeNames = value;
            return this;
        }

        public Builder type(Optional<String> value) {
            this.type = value;
            return this;
        }

        public Builder count(long value) {
            this.count = value;
            return this;
        }

        public Builder devices(Devices value) {
            this.devices = value;
            return this;
        }

        public Builder affinity(Affinity value) {
            this.affinity = value;
            return this;
        }

        public Builder options(Options value) {
            this.options = value;
            return this;
        }

        public Builder source(ConfSource value) {
            this.source = value;
            return this;
        }

        public GresConfLine build() {
            return new GresConfLine(nodeNames, name, type, count, devices, affinity, options, source);
        }
    }
}
