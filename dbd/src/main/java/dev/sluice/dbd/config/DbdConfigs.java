package dev.sluice.dbd.config;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.JwtConfig;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.common.conf.ListenAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads {@code slurmdbd.conf} (slurmdbd.conf(5)): {@code Key=Value} lines, {@code #} comments,
 * case-insensitive keys. The storage keys say where the database is:
 * {@code StorageType=accounting_storage/mysql} with {@code StorageHost} (localhost),
 * {@code StoragePort} (3306), {@code StorageUser}, {@code StoragePass} and {@code StorageLoc}
 * (slurm_acct_db) means MariaDB; without a StorageType Sluice uses its embedded database (H2 in
 * MariaDB mode) under a data directory. A JDBC URL given on the command line overrides both.
 */
public final class DbdConfigs {
    public static final int DEFAULT_DBD_PORT = 6819;
    /** Like the controller's: the daemons' gRPC port sits this far above the Slurm port. */
    public static final int GRPC_PORT_OFFSET = 100;

    public static final String MYSQL = "accounting_storage/mysql";

    /** Keys slurmdbd accepts that Sluice reads. */
    private static final Set<String> USED = Set.of(
            "communicationparameters",
            "dbdaddr",
            "dbdhost",
            "dbdport",
            "storagetype",
            "storagehost",
            "storageport",
            "storageuser",
            "storagepass",
            "storageloc",
            "storageparameters");

    /** Keys slurmdbd accepts that Sluice does not act upon (yet); accepted so files carry over. */
    private static final Set<String> ACCEPTED = Set.of(
            "archivedir",
            "archiveevents",
            "archivejobs",
            "archiveresvs",
            "archivescript",
            "archivesteps",
            "archivesuspend",
            "archivetxn",
            "archiveusage",
            "authaltparameters",
            "authalttypes",
            "authinfo",
            "authtype",
            "commitdelay",
            "dbdbackuphost",
            "debugflags",
            "debuglevel",
            "debuglevelsyslog",
            "defaultqos",
            "logfile",
            "logtimeformat",
            "maxquerytimerange",
            "messagetimeout",
            "parameters",
            "pidfile",
            "pluginDir".toLowerCase(Locale.ROOT),
            "privatedata",
            "purgeeventafter",
            "purgejobafter",
            "purgeresvafter",
            "purgestepafter",
            "purgesuspendafter",
            "purgetxnafter",
            "purgeusageafter",
            "slurmuser",
            "storagebackuphost",
            "trackslurmctlddown",
            "trackwckey",
            "tcptimeout");

    private DbdConfigs() {}

    /**
     * The {@code auth/jwt} tokens slurmdbd.conf's {@code AuthAltTypes} and
     * {@code AuthAltParameters} name ({@link JwtConfig}: {@code jwt_key=}, {@code jwks=},
     * {@code userclaimfield=}); empty when JWT is off. Unlike the controller, the accounting
     * daemon has no default key: one of {@code jwt_key=} and {@code jwks=} must be given.
     *
     * @throws IllegalArgumentException when a key is missing or unusable
     */
    public static Optional<UserTokens> jwtTokens(String text, String fileName) {
        List<String> types = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (String raw : text.split("\n", -1)) {
            String line = raw.replaceFirst("#.*$", "").strip();
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String k = line.substring(0, eq).strip();
            List<String> items = List.of(line.substring(eq + 1).strip().split(","));
            if (k.equalsIgnoreCase("AuthAltTypes")) {
                types = new ArrayList<>(items);
            } else if (k.equalsIgnoreCase("AuthAltParameters")) {
                params = new ArrayList<>(items);
            }
        }
        try {
            return JwtConfig.load(types, params, Optional.empty());
        } catch (AuthException e) {
            throw new IllegalArgumentException(fileName + ": " + e.getMessage(), e);
        }
    }

    /** Command-line choices that override the file. Empty values mean "not given". */
    public record Overrides(
            Optional<String> jdbcUrl,
            Optional<Path> dataDir,
            Optional<Integer> dbdPort,
            Optional<Integer> grpcPort,
            Optional<String> bind) {
        public static Overrides none() {
            return new Overrides(
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    /**
     * @param text the file's content ("" when there is no file)
     * @throws IllegalArgumentException naming the file and line of a bad key or value
     */
    public static DbdConfig parse(String text, String fileName, Overrides o) {
        Map<String, String> v = new TreeMap<>();
        int lineNo = 0;
        for (String raw : text.split("\n", -1)) {
            lineNo++;
            String line = raw.replaceFirst("#.*$", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": expected Key=Value: \"" + line + "\"");
            }
            String key = line.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            if (!USED.contains(key) && !ACCEPTED.contains(key)) {
                throw new IllegalArgumentException(fileName + ":" + lineNo + ": unknown key \""
                        + line.substring(0, eq).strip() + "\"");
            }
            v.put(key, line.substring(eq + 1).strip());
        }
        int dbdPort = o.dbdPort().orElseGet(() -> port(v, "dbdport", DEFAULT_DBD_PORT, fileName));
        // On port 0 the gRPC port is still DbdPort + 100, of the port the daemon ends up with.
        int grpcPort = o.grpcPort().orElse(dbdPort == 0 ? DbdConfig.GRPC_ABOVE : dbdPort + GRPC_PORT_OFFSET);
        String bind = o.bind().orElseGet(() -> bindAddress(v));
        String user = v.getOrDefault("storageuser", "");
        String pass = v.getOrDefault("storagepass", "");
        String url;
        if (o.jdbcUrl().isPresent()) {
            url = o.jdbcUrl().get();
        } else if (v.containsKey("storagetype")) {
            String type = v.get("storagetype");
            if (!type.equalsIgnoreCase(MYSQL)) {
                throw new IllegalArgumentException(
                        fileName + ": StorageType=" + type + " is not supported (use " + MYSQL + ")");
            }
            String host = v.getOrDefault("storagehost", "localhost");
            int port = port(v, "storageport", 3306, fileName);
            String db = v.getOrDefault("storageloc", "slurm_acct_db");
            url = "jdbc:mariadb://" + host + ":" + port + "/" + db;
        } else {
            Path dir = o.dataDir().orElse(Path.of("/var/lib/sluice/dbd"));
            url = embeddedUrl(dir);
        }
        return new DbdConfig(bind, dbdPort, grpcPort, url, user, pass, 4);
    }

    /**
     * {@code DbdAddr} when set (the address controllers and commands are told to reach); with
     * {@code CommunicationParameters=NoInAddrAny} that, else {@code DbdHost}, else localhost, as
     * slurmdbd defaults DbdAddr to DbdHost and DbdHost to localhost; otherwise "" (every
     * address).
     */
    static String bindAddress(Map<String, String> v) {
        if (ListenAddress.has(v.get("communicationparameters"), ListenAddress.NO_IN_ADDR_ANY)) {
            return v.getOrDefault("dbdaddr", v.getOrDefault("dbdhost", "localhost"));
        }
        return v.getOrDefault("dbdaddr", "");
    }

    /** The embedded default: a file-backed H2 in MariaDB mode under {@code dir}. */
    public static String embeddedUrl(Path dir) {
        // USER and VALUE are column-name words elsewhere; H2 must not treat them as keywords.
        // WRITE_DELAY=0: a commit is in the file before it returns, as InnoDB's is; by default
        // H2 writes it up to 0.5 s later, and a sluice-dbd killed meanwhile lost records the
        // controller had been told were safe (TestEmbeddedDurability).
        return "jdbc:h2:file:" + dir.toAbsolutePath().resolve("sluice_acct")
                + ";MODE=MariaDB;DATABASE_TO_LOWER=TRUE;NON_KEYWORDS=USER,VALUE;WRITE_DELAY=0";
    }

    private static int port(Map<String, String> v, String key, int dflt, String fileName) {
        String s = v.get(key);
        if (s == null) {
            return dflt;
        }
        try {
            int p = Integer.parseInt(s);
            if (p < 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(fileName + ": " + key + "=" + s + " is not a port number", e);
        }
    }
}
