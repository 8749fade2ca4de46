package dev.sluice.noded.confine;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import dev.sluice.common.os.LibC;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The two bpf(2) calls cgroup v2 device isolation needs, through JNA's {@code syscall}: load a
 * {@link BpfDeviceProgram} ({@code BPF_PROG_LOAD}) and attach it to a cgroup directory
 * ({@code BPF_PROG_ATTACH}, {@code BPF_CGROUP_DEVICE}, {@code BPF_F_ALLOW_MULTI} so that a
 * program an outer manager attached still applies). Once attached, the cgroup holds the program;
 * both descriptors are closed again. {@code union bpf_attr} layouts: include/uapi/linux/bpf.h.
 */
final class Bpf {
    private static final int BPF_PROG_LOAD = 5;
    private static final int BPF_PROG_ATTACH = 8;
    private static final int BPF_PROG_TYPE_CGROUP_DEVICE = 15;
    private static final int BPF_CGROUP_DEVICE = 6;
    private static final int BPF_F_ALLOW_MULTI = 2;
    private static final int ATTR_SIZE = 128;
    private static final int LOG_SIZE = 4096;
    private static final int O_RDONLY = 0;
    private static final int O_DIRECTORY = 0200000;
    private static final int O_CLOEXEC = 02000000;

    private Bpf() {}

    /** bpf(2)'s number: 321 on x86_64, 280 on aarch64 (the generic table). */
    static long syscallNumber() throws IOException {
        if (!Platform.isLinux()) {
            throw new IOException("bpf(2) exists on Linux only");
        }
        if (Platform.isIntel() && Platform.is64Bit()) {
            return 321;
        }
        if (Platform.isARM() && Platform.is64Bit()) {
            return 280;
        }
        throw new IOException("bpf(2) syscall number unknown for " + Platform.ARCH);
    }

    /** Loads {@code program} and attaches it to the cgroup v2 directory {@code cgroup}. */
    static void attachDeviceProgram(Path cgroup, byte[] program) throws IOException {
        long nr = syscallNumber();
        LibC.Calls c = LibC.get();
        Memory insns = new Memory(program.length);
        insns.write(0, program, 0, program.length);
        byte[] gpl = "GPL\0".getBytes(StandardCharsets.US_ASCII);
        Memory license = new Memory(gpl.length);
        license.write(0, gpl, 0, gpl.length);
        Memory log = new Memory(LOG_SIZE);
        log.clear();
        Memory load = new Memory(ATTR_SIZE);
        load.clear();
        load.setInt(0, BPF_PROG_TYPE_CGROUP_DEVICE);
        load.setInt(4, program.length / BpfDeviceProgram.INSN_SIZE);
        load.setPointer(8, insns); // insns
        load.setPointer(16, license); // license
        load.setInt(24, 1); // log_level
        load.setInt(28, LOG_SIZE); // log_size
        load.setPointer(32, log); // log_buf
        int prog = (int) c.syscall(nr, BPF_PROG_LOAD, load, ATTR_SIZE);
        if (prog < 0) {
            int errno = Native.getLastError();
            throw new IOException("BPF_PROG_LOAD of the device program failed: errno " + errno + " "
                    + log.getString(0, StandardCharsets.US_ASCII.name()).strip());
        }
        try {
            int dir = c.open(cgroup.toString(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (dir < 0) {
                throw new IOException("cannot open " + cgroup + ": errno " + Native.getLastError());
            }
            try {
                Memory attach = new Memory(ATTR_SIZE);
                attach.clear();
                attach.setInt(0, dir); // target_fd
                attach.setInt(4, prog); // attach_bpf_fd
                attach.setInt(8, BPF_CGROUP_DEVICE); // attach_type
                attach.setInt(12, BPF_F_ALLOW_MULTI); // attach_flags
                if (c.syscall(nr, BPF_PROG_ATTACH, attach, ATTR_SIZE) < 0) {
                    throw new IOException("BPF_PROG_ATTACH to " + cgroup + " failed: errno " + Native.getLastError());
                }
            } finally {
                c.close(dir);
            }
        } finally {
            c.close(prog);
        }
    }
}
