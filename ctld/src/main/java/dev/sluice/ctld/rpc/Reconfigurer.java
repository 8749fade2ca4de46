package dev.sluice.ctld.rpc;

import dev.sluice.common.conf.show.ShowConfig;
import java.util.Map;

/**
 * {@code scontrol reconfigure} and the files configless node daemons fetch. The server's
 * implementation re-reads the files, hands the controller loop what may change while running,
 * and asks every node daemon to fetch and register again.
 */
public interface Reconfigurer {
    /** The files served by GetConfig now: name → content (empty without enable_configless). */
    Map<String, byte[]> configFiles();

    /** What {@code scontrol show config} reports now: the configuration last read. */
    ShowConfig showConfig();

    /** @throws dev.sluice.common.error.SlurmException when the new files are not valid */
    void reconfigure();

    /** Files fixed at start-up; reconfigure is refused (tests, embedded controllers). */
    static Reconfigurer fixed(Map<String, byte[]> files, ShowConfig report) {
        Map<String, byte[]> copy = Map.copyOf(files);
        return new Reconfigurer() {
            @Override
            public Map<String, byte[]> configFiles() {
                return copy;
            }

            @Override
            public ShowConfig showConfig() {
                return report;
            }

            @Override
            public void reconfigure() {
                throw new dev.sluice.common.error.SlurmException(
                        dev.sluice.common.error.ErrorCode.DISABLED, "reconfigure needs the configuration files");
            }
        };
    }
}
