package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One resource line of {@code gres.conf} (gres.conf(5)), checked and expanded.
 *
 * @param nodeNames the nodes the line applies to ({@code NodeName=}, expanded); empty = every node
 * @param name the GRES name ({@code gpu}, {@code mps}, {@code shard}, ...)
 * @param type {@code Type=}, if any
 * @param files device files of {@code File=}, expanded ({@code /dev/nvidia[0-3]} gives four)
 * @param multipleFiles device files of {@code MultipleFiles=} (one MIG device made of several files)
 * @param count {@code Count=} with K/M/G/T/P suffixes applied; default the number of files, else 1
 * @param cores {@code Cores=} (or the old {@code CPUs=}) expanded to core indices; empty = any
 * @param links {@code Links=} as written, empty when absent
 * @param flags {@code Flags=} items as written ({@code CountOnly}, {@code explicit}, ...)
 * @param autoDetect an in-line {@code AutoDetect=} for these nodes, if any
 */
public record GresConfLine(
        List<String> nodeNames,
        String name,
        Optional<String> type,
        List<String> files,
        List<String> multipleFiles,
        long count,
        List<Integer> cores,
        String links,
        List<String> flags,
        Optional<String> autoDetect,
        String file,
        int line) {

    public GresConfLine {
        nodeNames = List.copyOf(nodeNames);
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        files = List.copyOf(files);
        multipleFiles = List.copyOf(multipleFiles);
        cores = List.copyOf(cores);
        requireNonNull(links, "links is null");
        flags = List.copyOf(flags);
        requireNonNull(autoDetect, "autoDetect is null");
        requireNonNull(file, "file is null");
    }

    public boolean appliesTo(String nodeName) {
        return nodeNames.isEmpty() || nodeNames.contains(nodeName);
    }

    public boolean hasFlag(String flag) {
        return flags.stream().anyMatch(f -> f.equalsIgnoreCase(flag));
    }
}
