package dev.sluice.common.conf;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Controller hosts, following Slurm 22.05: {@code SlurmctldHost} lines in order (primary first),
 * each {@code name} or {@code name(addr)}; without them the legacy {@code ControlMachine}/{@code
 * ControlAddr}/{@code BackupController}/{@code BackupAddr} keys. Errors use Slurm's wording ("No
 * SlurmctldHost defined.", "Duplicate SlurmctldHost records: x", ...).
 */
final class ControlHosts {
    private ControlHosts() {}

    static List<ControlHost> resolve(SlurmConfReader.Collected c) throws ConfigException {
        List<ControlHost> out = new ArrayList<>();
        if (!c.controlHosts.isEmpty()) {
            for (String legacy : List.of("ControlMachine", "ControlAddr", "BackupController", "BackupAddr")) {
                c.entry(legacy)
                        .ifPresent(e -> c.warnings.add(
                                e.file() + ":" + e.line() + ": Ignoring " + legacy + " since SlurmctldHost is set."));
            }
            for (ConfEntry e : c.controlHosts) {
                out.add(parse(e));
            }
        } else {
            Optional<ConfEntry> machine = c.entry("ControlMachine");
            if (machine.isEmpty()) {
                throw new ConfigException(c.mainFile, 0, "SlurmctldHost", "No SlurmctldHost defined.");
            }
            Optional<ConfEntry> addr = c.entry("ControlAddr");
            if (addr.isEmpty() && machine.get().value().contains(",")) {
                throw machine.get().error("ControlMachine has multiple host names, so ControlAddr must be specified.");
            }
            out.add(new ControlHost(
                    machine.get().value(),
                    addr.map(ConfEntry::value).orElse(machine.get().value())));
            Optional<ConfEntry> backup = c.entry("BackupController");
            Optional<ConfEntry> backupAddr = c.entry("BackupAddr");
            if (backup.isPresent()) {
                out.add(new ControlHost(
                        backup.get().value(),
                        backupAddr.map(ConfEntry::value).orElse(backup.get().value())));
            } else if (backupAddr.isPresent()) {
                throw backupAddr.get().error("BackupAddr specified without BackupController");
            }
        }
        Set<String> seen = new HashSet<>();
        for (ControlHost h : out) {
            if (!seen.add(h.name())) {
                ConfEntry at =
                        c.controlHosts.isEmpty() ? c.entry("ControlMachine").orElseThrow() : c.controlHosts.getLast();
                throw at.error("Duplicate SlurmctldHost records: " + h.name());
            }
        }
        return out;
    }

    private static ControlHost parse(ConfEntry e) throws ConfigException {
        String v = e.value();
        int open = v.indexOf('(');
        int close = v.indexOf(')');
        boolean bad = (open >= 0) != (close >= 0)
                || (close >= 0 && close != v.length() - 1)
                || (close >= 0 && close != v.lastIndexOf(')'))
                || (open >= 0 && close < open);
        if (bad || open == 0) {
            throw e.error("Bad value \"" + v + "\" for SlurmctldHost");
        }
        if (open < 0) {
            return new ControlHost(v, v);
        }
        return new ControlHost(v.substring(0, open), v.substring(open + 1, close));
    }

    /** {@code SlurmctldPort}: one port or a range {@code 6817-6820}; returns {first, last}. */
    static int[] portRange(String v) {
        String[] f = v.split("-", -1);
        int lo = Integer.parseInt(f[0].strip());
        int hi = f.length > 1 ? Integer.parseInt(f[1].strip()) : lo;
        return new int[] {lo, hi};
    }

    static void checkPortRange(ConfEntry e) throws ConfigException {
        String[] f = e.value().split("-", -1);
        if (f.length > 2) {
            throw e.error("Invalid SlurmctldPort " + e.value());
        }
        long lo = Values.unsigned(new ConfEntry(e.key(), "", f[0], e.file(), e.line()), 0xFFFF);
        long hi = f.length > 1 ? Values.unsigned(new ConfEntry(e.key(), "", f[1], e.file(), e.line()), 0xFFFF) : lo;
        if (lo == 0 || lo == Values.INFINITE || hi == Values.INFINITE || hi < lo) {
            throw e.error("Invalid SlurmctldPort " + e.value());
        }
    }
}
