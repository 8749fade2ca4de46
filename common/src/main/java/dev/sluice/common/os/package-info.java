/**
 * The operating system's calls that the JDK does not offer (umask, getgrouplist, bpf through
 * syscall): one binding of the C library for every daemon ({@link dev.sluice.common.os.LibC}).
 */
package dev.sluice.common.os;
