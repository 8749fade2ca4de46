package dev.sluice.common.hostlist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Table tests. Every expectation was produced by Slurm 22.05.8 (Debian bookworm {@code
 * slurm-client}, run offline here with a one-line slurm.conf): {@code scontrol show hostnames},
 * {@code scontrol show hostlist} and {@code scontrol show hostlistsorted}.
 */
class TestHostList {

    // scontrol show hostnames '<expr>' (output joined with spaces)
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "n[001-003]         | n001 n002 n003",
                "n[1-3,7]           | n1 n2 n3 n7",
                "a,b                | a b",
                "rack[1-2]-n[1-3]   | rack1-n1 rack1-n2 rack1-n3 rack2-n1 rack2-n2 rack2-n3",
                "n[1-2]x[3-4]       | n1x3 n1x4 n2x3 n2x4",
                "n[1-2][3-4]        | n13 n14 n23 n24",
                "n[9-010],n[01-3]   | n9 n10 n01 n02 n03",
                "n[009-10]          | n009 n010",
                "n1 n2              | n1 n2",
                "'n1,,n2'           | n1 n2",
                "'n[1-2],'          | n1 n2",
                "n[1,1]             | n1 n1",
                "x                  | x",
            })
    void expandMatchesScontrolShowHostnames(String expr, String expected) {
        assertThat(HostList.expand(expr)).containsExactlyElementsOf(Arrays.asList(expected.split(" ")));
    }

    // scontrol show hostlist '<names>': order kept, duplicates kept, only adjacent runs joined
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "n1,n3,n2          | n[1,3,2]",
                "n3,n1,n2,n2       | n[3,1-2,2]",
                "n01,n1,n2,n02     | n[01,1-2,02]",
                "b1,a2,a1          | b1,a[2,1]",
                "n9,n10,n11        | n[9-11]",
                "n1a,n2a           | n1a,n2a",
                "n,n1,n2           | n,n[1-2]",
                "a1b2,a1b3         | a1b[2-3]",
                "n-1,n-2           | n-[1-2]",
                "n10,n9,n010,n009  | n[10,9,010,009]",
                "x                 | x",
                "n0,n00,n000       | n[0,00,000]",
                "n99,n100          | n[99-100]",
                "a,b,a             | a,b,a",
                "n2,m1,n1          | n2,m1,n1",
                "n1,n2,n3,x,n4,n5  | n[1-3],x,n[4-5]",
            })
    void compressMatchesScontrolShowHostlist(String names, String expected) {
        assertThat(HostList.compress(List.of(names.split(",")))).isEqualTo(expected);
    }

    // scontrol show hostlistsorted '<names>': what Slurm prints for node lists (SLURM_JOB_NODELIST)
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "n3,n1,n2,n2       | n[1-2,2-3]",
                "n10,n9,n010,n009  | n[9-10,009-010]",
                "b1,a2,a1          | a[1-2],b1",
                "n1,n01            | n[1,01]",
                "n9,n010           | n[9,010]",
                "n09,n10           | n[09-10]",
                "n099,n100         | n[099-100]",
                "n2,m1,n1,m        | m,m1,n[1-2]",
                "a10,a9,b,a        | a,a[9-10],b",
                "n1,N1             | N1,n1",
                "n1,n2,n3,x,n4,n5  | n[1-5],x",
                "node-1,node1      | node1,node-1",
                "ab,a              | a,ab",
                "n9,n10,n011       | n[9-10,011]",
                "n0,n00,n000,n1    | n[0-1,00,000]",
                "n8,n09,n10        | n[8,09-10]",
            })
    void compressSortedMatchesScontrolShowHostlistsorted(String names, String expected) {
        assertThat(HostList.compressSorted(List.of(names.split(",")))).isEqualTo(expected);
    }

    // Slurm 22.05: "_parse_single_range: Invalid range: `3-1'"; "n[1-" and "n[6-]" are our departures
    // (Slurm prints "n]" and "n6" for them)
    @ParameterizedTest
    @CsvSource(value = {"n[3-1]", "n[a-b]", "n[]", "n[1-", "n]1", "n[[1]]", "n[1-2", "n[6-]"})
    void badSyntaxIsRejectedWithTheExpression(String expr) {
        assertThatThrownBy(() -> HostList.expand(expr))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid hostlist: " + expr);
    }

    // Sluice extension: Slurm 22.05 says "Invalid hostlist: login[1-2]-ib", yet its config parser
    // accepts such NodeAddr values (corpus 21-romxero); we expand the suffix.
    @org.junit.jupiter.api.Test
    void textAfterTheLastBracketIsASuffix() {
        assertThat(HostList.expand("login[1-2]-ib")).containsExactly("login1-ib", "login2-ib");
        assertThat(HostList.expand("a[1-2]b[3-4]c")).containsExactly("a1b3c", "a1b4c", "a2b3c", "a2b4c");
    }

    @org.junit.jupiter.api.Test
    void hugeRangesAreRefusedInsteadOfExhaustingMemory() {
        assertThatThrownBy(() -> HostList.expand("n[0-999999999]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too many hosts");
    }

    @org.junit.jupiter.api.Test
    void emptyExpressionIsEmptyAndEmptyListCompressesToEmpty() {
        // scontrol show hostlist ',' prints an empty line
        assertThat(HostList.expand(",")).isEmpty();
        assertThat(HostList.compress(List.of())).isEmpty();
    }
}
