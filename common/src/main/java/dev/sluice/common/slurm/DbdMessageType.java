package dev.sluice.common.slurm;

/**
 * slurmdbd's message types by name and number, as {@code sacctmgr show stats} and dbv0.0.38's
 * {@code diag} list the requests the accounting daemon served (the numbers are Slurm's protocol
 * constants; those seen in a recording are checked by compat 190). Only the types sluice-dbd
 * has a request for are here; docs/accounting.md says which Sluice request each one counts.
 */
public enum DbdMessageType {
    DBD_FINI(1401),
    DBD_ADD_ACCOUNTS(1402),
    DBD_ADD_ASSOCS(1404),
    DBD_ADD_CLUSTERS(1405),
    DBD_ADD_USERS(1406),
    DBD_GET_ACCOUNTS(1409),
    DBD_GET_ASSOCS(1410),
    DBD_GET_ASSOC_USAGE(1411),
    DBD_GET_CLUSTERS(1412),
    DBD_GET_CLUSTER_USAGE(1413),
    DBD_GET_USERS(1415),
    DBD_MODIFY_ACCOUNTS(1428),
    DBD_MODIFY_ASSOCS(1429),
    DBD_MODIFY_CLUSTERS(1430),
    DBD_MODIFY_USERS(1431),
    DBD_REMOVE_ACCOUNTS(1435),
    DBD_REMOVE_ASSOCS(1437),
    DBD_REMOVE_CLUSTERS(1438),
    DBD_REMOVE_USERS(1439),
    DBD_GET_JOBS_COND(1444),
    DBD_ADD_QOS(1447),
    DBD_GET_QOS(1448),
    DBD_REMOVE_QOS(1450),
    DBD_MODIFY_QOS(1451),
    DBD_GET_WCKEYS(1453),
    DBD_GET_RESVS(1464),
    DBD_SEND_MULT_MSG(1474),
    DBD_MODIFY_JOB(1476),
    DBD_GET_TRES(1486),
    DBD_GET_STATS(1489),
    DBD_CLEAR_STATS(1491);

    private final int number;

    DbdMessageType(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }
}
