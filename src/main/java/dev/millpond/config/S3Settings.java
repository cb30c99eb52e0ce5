package dev.millpond.config;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * DUCKDB_S3_*: each variable that is present becomes one legacy DuckDB {@code SET} (as the original, in the
 * order endpoint, access key id, secret access key, use ssl, url style, region). Every present value matched
 * {@code ^[a-zA-Z0-9_.:/\-@+=]+$} at load time, so it can be placed in a single-quoted SQL literal.
 */
public record S3Settings(
        Optional<String> endpoint,
        String accessKeyId,
        Secret secretAccessKey,
        Optional<String> useSsl,
        Optional<String> urlStyle,
        Optional<String> region) {

    static final Pattern S3_VALUE = Pattern.compile("[a-zA-Z0-9_.:/\\-@+=]+");

    /** DUCKDB_S3_*, shared by the writer and the maintenance tools. */
    static S3Settings parse(Env env) {
        return new S3Settings(
                value(env, "DUCKDB_S3_ENDPOINT", false),
                required(env, "DUCKDB_S3_ACCESS_KEY_ID", false),
                Secret.of(required(env, "DUCKDB_S3_SECRET_ACCESS_KEY", true)),
                value(env, "DUCKDB_S3_USE_SSL", false),
                value(env, "DUCKDB_S3_URL_STYLE", false),
                value(env, "DUCKDB_S3_REGION", false));
    }

    /** A present DUCKDB_S3_* value must match {@link #S3_VALUE}, so a variable set to "" fails startup. */
    private static Optional<String> value(Env env, String variable, boolean secret) {
        if (!env.isPresent(variable)) {
            return Optional.empty();
        }
        String v = env.raw(variable);
        if (!S3_VALUE.matcher(v).matches()) {
            throw new ConfigException(variable + " contains unsafe characters"
                    + (secret ? "" : ": '" + v + "'") + " (allowed: letters, digits and _ . : / - @ + =)");
        }
        return Optional.of(v);
    }

    /** docs/configuration.md marks the DuckDB S3 key id and secret as required. */
    private static String required(Env env, String variable, boolean secret) {
        env.required(variable);
        return value(env, variable, secret).orElseThrow();
    }
}
