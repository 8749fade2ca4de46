package dev.sluice.restd.http;

/**
 * Slurm's errors specific to slurmrestd (slurm_errno.h's 9000 range), with their texts, and the
 * HTTP status slurmrestd answers each with; any other error is a 500 there.
 */
public enum RestErrors {
    INVALID_QUERY(9000, "Query empty or not RFC7320 compliant", 422),
    FAIL_PARSING(9001, "Failure during parsing", 400),
    INVALID_JOBS_DESC(9002, "Jobs description entry not found, empty or not dictionary or list", 400),
    EMPTY_RESULT(9003, "Nothing found with query", 404),
    /** A body without the list it must hold (22.05's POST of accounts, users, associations: status 200). */
    DATA_PATH_NOT_FOUND(9200, "Unable to resolve path", 200),
    /** A field of the wrong type (22.05's parser: a QOS priority that is no integer). */
    DATA_CONVERSION(9202, "Unable to convert Data type", 400),
    /** A change that would apply to more than one object (ESLURM_DATA_AMBIGUOUS_MODIFY). */
    AMBIGUOUS_MODIFY(
            9210,
            "Request matched more than one object to modify. Modifications must only apply to a single object. Try"
                    + " adding more properties to make update match a unique object.",
            400),
    /** A request that names too little to act on (ESLURM_DATA_AMBIGUOUS_QUERY). */
    AMBIGUOUS_QUERY(
            9211,
            "Request matched more than one object to query. Request is limited to query of a single matching"
                    + " object.",
            400);

    private final int number;
    private final String text;
    private final int httpStatus;

    RestErrors(int number, String text, int httpStatus) {
        this.number = number;
        this.text = text;
        this.httpStatus = httpStatus;
    }

    public int number() {
        return number;
    }

    public String text() {
        return text;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
