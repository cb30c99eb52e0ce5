package dev.millpond.config;

import java.util.Optional;

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
}
