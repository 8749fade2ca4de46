package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * How a job is described to people: {@code --job-name}, {@code --comment}, the host it was
 * submitted from, and {@code --mail-type}/{@code --mail-user}.
 */
public record JobDescription(String name, String comment, String submitHost, JobRequest.Mail mail) {
    public JobDescription {
        requireNonNull(name, "name is null");
        requireNonNull(mail, "mail is null");
    }
}
