package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.ctld.state.JobRequest;
import java.util.Map;

/**
 * The controller's check of the text a job brings, made here and not (only) in the commands,
 * since any client can send a request. Every field another user's {@code squeue}, {@code scontrol
 * show job} or {@code sacct} prints is refused when it holds a control character
 * ({@link ControlCharacters#checked}), named as {@code scontrol show job} names it; the options
 * parsed into a type where the request arrived ({@code MailType}, {@code GresFlags}) were checked
 * there, since a control character does not parse. The environment is
 * never shown to others and may hold anything a process environment can: no NUL, and names
 * without {@code =}.
 */
public final class JobText {
    private JobText() {}

    public static void check(JobRequest r) {
        field("JobName", r.name());
        field("WorkDir", r.launch().workDir());
        field("StdOut", r.io().stdOut());
        field("StdErr", r.io().stdErr());
        field("StdIn", r.io().stdIn());
        field("Partition", r.partition());
        field("Account", r.account());
        field("Comment", r.comment());
        field("QOS", r.qos());
        field("Features", r.placement().constraint().text());
        field("ReqNodeList", r.placement().reqNodes().text());
        field("ExcNodeList", r.placement().excludeNodes().text());
        field("TresPerNode", r.gres().text());
        field("Command", r.launch().command());
        for (String arg : r.launch().scriptArgs()) {
            field("Command", arg);
        }
        field("AllocNode", r.submitHost());
        field("Dependency", r.sequencing().dependency().text());
        field("ArrayTaskId", r.sequencing().array().text());
        field("MailUser", r.mail().user());
        field("Licenses", r.licenses().toString());
        field("Reservation", r.reservation());
        field("WCKey", r.wckey().name());
        field("TresPerJob", r.gpuOptions().gpus().text());
        field("TresPerNode", r.gpuOptions().gpusPerNode().text());
        field("TresPerTask", r.gpuOptions().gpusPerTask().text());
        environment(r.launch().environment());
    }

    private static void field(String name, String value) {
        ControlCharacters.checked(name, value);
    }

    private static void environment(Map<String, String> env) {
        for (Map.Entry<String, String> e : env.entrySet()) {
            String name = e.getKey();
            if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
                throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "Invalid environment variable name");
            }
            if (e.getValue().indexOf('\0') >= 0) {
                throw new SlurmException(
                        ErrorCode.INVALID_ARGUMENT, "Invalid environment variable value: NUL character");
            }
        }
    }
}
