package dev.sluice.noded.confine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The eBPF program (type {@code BPF_PROG_TYPE_CGROUP_DEVICE}) that cgroup v2 uses in place of
 * v1's {@code devices.deny}: it sees each device access of the cgroup's processes as
 * {@code struct bpf_cgroup_dev_ctx {u32 access_type; u32 major; u32 minor;}} (the device type in
 * the low 16 bits of {@code access_type}: 1 block, 2 char) and returns 0 to refuse, 1 to allow.
 * This one refuses the listed devices and allows everything else, as runc and systemd build
 * theirs (instruction set: the kernel's Documentation/bpf/standardization/instruction-set.rst).
 *
 * <pre>
 *   r2 = *(u32 *)(r1 + 0); r2 &amp;= 0xffff      type
 *   r3 = *(u32 *)(r1 + 4); r4 = *(u32 *)(r1 + 8)   major, minor
 *   per denied device:  if r2 != type goto +4; if r3 != major goto +3; if r4 != minor goto +2;
 *                       r0 = 0; exit
 *   r0 = 1; exit
 * </pre>
 */
public final class BpfDeviceProgram {
    /** Bytes per instruction ({@code struct bpf_insn}). */
    public static final int INSN_SIZE = 8;

    static final int LDX_MEM_W = 0x61; // BPF_LDX | BPF_MEM | BPF_W
    static final int ALU64_AND_K = 0x57; // BPF_ALU64 | BPF_AND | BPF_K
    static final int JMP_JNE_K = 0x55; // BPF_JMP | BPF_JNE | BPF_K
    static final int ALU64_MOV_K = 0xb7; // BPF_ALU64 | BPF_MOV | BPF_K
    static final int JMP_EXIT = 0x95; // BPF_JMP | BPF_EXIT

    static final int DEV_BLOCK = 1; // BPF_DEVCG_DEV_BLOCK
    static final int DEV_CHAR = 2; // BPF_DEVCG_DEV_CHAR

    private BpfDeviceProgram() {}

    /** The instructions, little-endian as on x86_64 and aarch64, {@link #INSN_SIZE} bytes each. */
    public static byte[] denying(List<DeviceFile> denied) {
        ByteBuffer b = ByteBuffer.allocate((6 + 5 * denied.size()) * INSN_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        insn(b, LDX_MEM_W, 2, 1, 0, 0);
        insn(b, ALU64_AND_K, 2, 0, 0, 0xffff);
        insn(b, LDX_MEM_W, 3, 1, 4, 0);
        insn(b, LDX_MEM_W, 4, 1, 8, 0);
        for (DeviceFile d : denied) {
            insn(b, JMP_JNE_K, 2, 0, 4, d.type() == 'b' ? DEV_BLOCK : DEV_CHAR);
            insn(b, JMP_JNE_K, 3, 0, 3, d.major());
            insn(b, JMP_JNE_K, 4, 0, 2, d.minor());
            insn(b, ALU64_MOV_K, 0, 0, 0, 0);
            insn(b, JMP_EXIT, 0, 0, 0, 0);
        }
        insn(b, ALU64_MOV_K, 0, 0, 0, 1);
        insn(b, JMP_EXIT, 0, 0, 0, 0);
        return b.array();
    }

    /** {@code struct bpf_insn {u8 code; u8 dst_reg:4, src_reg:4; s16 off; s32 imm;}}. */
    private static void insn(ByteBuffer b, int code, int dst, int src, int off, int imm) {
        b.put((byte) code);
        b.put((byte) ((src << 4) | dst));
        b.putShort((short) off);
        b.putInt(imm);
    }
}
