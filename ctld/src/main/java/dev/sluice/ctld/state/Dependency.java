package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A parsed {@code --dependency} expression, evaluated as Slurm does: terms joined by {@code ,}
 * (all must hold) or by {@code ?} (any may hold), never both. Each term is
 * {@code type:job[_task][+minutes][:job...]} or {@code singleton}.
 *
 * <p>Parsed once, when the job arrives; {@code text} is the expression as typed.
 *
 * <p>A job that has been purged from memory counts as satisfying the term, as in Slurm: it ended
 * long enough ago to be forgotten.
 */
public record Dependency(String text, List<Term> terms, boolean any, boolean valid) {

    public enum Type {
        AFTER,
        AFTERANY,
        AFTEROK,
        AFTERNOTOK,
        AFTERCORR,
        SINGLETON
    }

    /** The three answers: go, not yet, never. */
    public enum Status {
        SATISFIED,
        WAITING,
        NEVER
    }

    /** One job reference: {@code 123}, {@code 123_4}; {@code minutes} after its start for {@code after}. */
    public record Ref(int jobId, int taskId, long minutes) {}

    public record Term(Type type, List<Ref> refs) {
        public Term {
            refs = List.copyOf(refs);
        }
    }

    public static final Dependency NONE = new Dependency("", List.of(), false, true);

    public Dependency {
        java.util.Objects.requireNonNull(text, "text is null");
        terms = List.copyOf(terms);
    }

    /**
     * The expression as the controller keeps it: parsed, or, when it does not parse, kept as
     * typed and marked not {@link #valid}. Slurm refuses such a job only after it has made the job
     * record (its id is used up), so the refusal is the submission's, not the parser's.
     */
    public static Dependency read(String text) {
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            return new Dependency(text, List.of(), false, false);
        }
    }

    /** @throws IllegalArgumentException on anything Slurm would call a dependency problem */
    public static Dependency parse(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return text == null || text.isEmpty() ? NONE : new Dependency(text, List.of(), false, true);
        }
        boolean any = t.contains("?");
        if (any && t.contains(",")) {
            throw new IllegalArgumentException("cannot mix , and ? in a dependency");
        }
        List<Term> terms = new ArrayList<>();
        for (String raw : t.split(any ? "\\?" : ",")) {
            String term = raw.strip();
            if (term.equalsIgnoreCase("singleton")) {
                terms.add(new Term(Type.SINGLETON, List.of()));
                continue;
            }
            String[] parts = term.split(":");
            if (parts.length < 2) {
                // Slurm accepts a bare job id as "afterany".
                terms.add(new Term(Type.AFTERANY, List.of(ref(term))));
                continue;
            }
            Type type = Type.valueOf(parts[0].toUpperCase(Locale.ROOT));
            if (type == Type.SINGLETON) {
                throw new IllegalArgumentException("singleton takes no job ids");
            }
            List<Ref> refs = new ArrayList<>();
            for (int i = 1; i < parts.length; i++) {
                refs.add(ref(parts[i]));
            }
            terms.add(new Term(type, refs));
        }
        return new Dependency(text, terms, any, true);
    }

    private static Ref ref(String text) {
        String s = text.strip();
        long minutes = 0;
        int plus = s.indexOf('+');
        if (plus >= 0) {
            minutes = Long.parseLong(s.substring(plus + 1));
            s = s.substring(0, plus);
        }
        int under = s.indexOf('_');
        int task = -1;
        if (under >= 0) {
            task = Integer.parseInt(s.substring(under + 1));
            s = s.substring(0, under);
        }
        int id = Integer.parseInt(s);
        if (id <= 0 || minutes < 0) {
            throw new IllegalArgumentException("bad job id in dependency: " + text);
        }
        return new Ref(id, task, minutes);
    }

    public boolean isEmpty() {
        return terms.isEmpty();
    }

    /** Whether an array's tasks each wait for their own partner task ({@code aftercorr}). */
    public boolean correlates() {
        return terms.stream().anyMatch(t -> t.type() == Type.AFTERCORR);
    }

    /** Job ids this dependency names (for validation at submission). */
    public List<Integer> jobIds() {
        return terms.stream().flatMap(t -> t.refs().stream()).map(Ref::jobId).toList();
    }

    /** @param self the waiting job; {@code task} the array task about to start, or -1 */
    public Status evaluate(ClusterImage image, Job self, int task, long now) {
        if (terms.isEmpty()) {
            return Status.SATISFIED;
        }
        boolean allSatisfied = true;
        boolean anySatisfied = false;
        boolean anyNever = false;
        boolean allNever = true;
        for (Term term : terms) {
            Status s = evaluate(term, image, self, task, now);
            allSatisfied &= s == Status.SATISFIED;
            anySatisfied |= s == Status.SATISFIED;
            anyNever |= s == Status.NEVER;
            allNever &= s == Status.NEVER;
        }
        if (any) {
            return anySatisfied ? Status.SATISFIED : allNever ? Status.NEVER : Status.WAITING;
        }
        return allSatisfied ? Status.SATISFIED : anyNever ? Status.NEVER : Status.WAITING;
    }

    private static Status evaluate(Term term, ClusterImage image, Job self, int task, long now) {
        if (term.type() == Type.SINGLETON) {
            for (Job other : image.jobs()) {
                if (other.id() < self.id()
                        && !other.status().state().isFinished()
                        && other.request().name().equals(self.request().name())
                        && other.request().owner().uid()
                                == self.request().owner().uid()) {
                    return Status.WAITING;
                }
            }
            return Status.SATISFIED;
        }
        Status result = Status.SATISFIED;
        for (Ref ref : term.refs()) {
            int wantedTask = term.type() == Type.AFTERCORR ? task : ref.taskId();
            for (Job target : targets(image, ref.jobId(), wantedTask)) {
                Status s = one(term.type(), target, ref, now);
                if (s == Status.NEVER) {
                    return Status.NEVER;
                }
                if (s == Status.WAITING) {
                    result = Status.WAITING;
                }
            }
        }
        return result;
    }

    /**
     * What is left of the dependency as squeue {@code %E} and scontrol {@code Dependency=} show
     * it: each job reference on its own, {@code afterok:12(unfulfilled)} while it waits,
     * {@code (failed)} when it never can be met, gone once met (a job the controller does not
     * know counts as met); {@code ,} or {@code ?} between. A held job is not evaluated, so it
     * shows every reference unfulfilled, as Slurm. Empty when nothing is left.
     */
    public String remaining(ClusterImage image, Job self, long now, boolean evaluate) {
        List<String> parts = new ArrayList<>();
        for (Term term : terms) {
            String type = term.type().name().toLowerCase(Locale.ROOT);
            if (term.type() == Type.SINGLETON) {
                Status s = evaluate ? evaluate(term, image, self, -1, now) : Status.WAITING;
                if (s != Status.SATISFIED) {
                    parts.add("singleton" + mark(s));
                }
                continue;
            }
            boolean corr = term.type() == Type.AFTERCORR;
            for (Ref ref : term.refs()) {
                Status s = evaluate
                        ? evaluate(new Term(term.type(), List.of(ref)), image, self, corr ? ownTask(self) : -1, now)
                        : Status.WAITING;
                if (s != Status.SATISFIED) {
                    // Real Slurm 22.05 shows an aftercorr reference as the whole array:
                    // aftercorr:J_*(unfulfilled), aftercorr:J_*(failed) (compat 295).
                    String task = corr ? "_*" : ref.taskId() >= 0 ? "_" + ref.taskId() : "";
                    parts.add(
                            type + ":" + ref.jobId() + task + (ref.minutes() > 0 ? "+" + ref.minutes() : "") + mark(s));
                }
            }
        }
        return String.join(any ? "?" : ",", parts);
    }

    /** The task a record stands for: its own, or the first of those still pending in it. */
    private static int ownTask(Job self) {
        if (!self.array().isArray()) {
            return -1;
        }
        if (self.array().taskId() >= 0 || self.array().pendingTasks().isEmpty()) {
            return self.array().taskId();
        }
        return self.array().pendingTasks().ids().get(0);
    }

    private static String mark(Status s) {
        return s == Status.NEVER ? "(failed)" : "(unfulfilled)";
    }

    /** The records a reference covers: a plain job, one task, or every record of an array. */
    private static List<Job> targets(ClusterImage image, int jobId, int task) {
        List<Job> out = new ArrayList<>();
        for (Job j : image.jobs()) {
            boolean sameArray = j.array().arrayJobId() == jobId;
            if (j.id() == jobId && !sameArray) {
                out.add(j);
            } else if (sameArray
                    && (task < 0
                            || j.array().taskId() == task
                            || j.array().pendingTasks().contains(task))) {
                out.add(j);
            }
        }
        return out;
    }

    private static Status one(Type type, Job target, Ref ref, long now) {
        JobState state = target.status().state();
        boolean finished = state.isFinished();
        boolean ok = state == JobState.COMPLETED && target.status().exitStatus() == 0;
        return switch (type) {
            case AFTER ->
                target.run().startTime() > 0 && now >= target.run().startTime() + ref.minutes() * 60
                                || state == JobState.CANCELLED
                        ? Status.SATISFIED
                        : finished ? Status.SATISFIED : Status.WAITING;
            case AFTERANY -> finished ? Status.SATISFIED : Status.WAITING;
            case AFTEROK, AFTERCORR -> !finished ? Status.WAITING : ok ? Status.SATISFIED : Status.NEVER;
            case AFTERNOTOK -> !finished ? Status.WAITING : ok ? Status.NEVER : Status.SATISFIED;
            case SINGLETON -> Status.SATISFIED;
        };
    }
}
