package dev.millpond.sinks.hoglake.catalog;

import dev.millpond.observability.ErrorType;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Why a catalog request failed, and the verdict on it, decided here once: retryable (408, 429, every 5xx, transport
 * failures, a 404 the next attempt re-resolves, a 409 conflict on alter or commit) or permanent (422 validation,
 * 410 expired, 409 already_exists on a create, a malformed response, any other 4xx or a redirect) — a request that
 * cannot become valid by waiting must not burn the retry ladder.
 *
 * @param call       which kind of request it was
 * @param status     the HTTP status; empty for a transport failure or a malformed response
 * @param error      the envelope's machine code ({@code validation}, {@code commit_conflict}, …), or empty
 * @param detail     the envelope's prose, or the transport error's text
 * @param retryAfter the server's Retry-After on 429/503, a floor under the client's own backoff
 * @param retryable  the verdict
 */
public record CatalogFailure(CatalogCall call, OptionalInt status, Optional<String> error, String detail,
        Optional<Duration> retryAfter, boolean retryable) {

    public static CatalogFailure fromHttp(CatalogCall call, HoglakeHttpException e) {
        int status = e.status();
        Optional<String> error = e.body().map(HoglakeWire.ApiError::error);
        String detail = e.body().map(b -> b.detail() == null ? "" : b.detail()).orElse(e.getMessage());
        Optional<Duration> retryAfter = status == 429 || status == 503
                ? e.retryAfter().flatMap(CatalogFailure::parseRetryAfter) : Optional.empty();
        return new CatalogFailure(call, OptionalInt.of(status), error, detail, retryAfter, retryable(call, status));
    }

    public static CatalogFailure transport(CatalogCall call, Throwable cause) {
        return new CatalogFailure(call, OptionalInt.empty(), Optional.empty(), String.valueOf(cause),
                Optional.empty(), true);
    }

    static CatalogFailure malformedResponse(CatalogCall call, Throwable cause) {
        return new CatalogFailure(call, OptionalInt.empty(), Optional.empty(),
                "malformed response: " + cause.getMessage(), Optional.empty(), false);
    }

    private static boolean retryable(CatalogCall call, int status) {
        if (status == 408 || status == 429 || status >= 500) {
            return true;
        }
        if (status == 404) {
            return true;
        }
        if (status == 409) {
            return call == CatalogCall.ALTER || call == CatalogCall.COMMIT;
        }
        return false;
    }

    /** Delta-seconds, read as a float as the original does; an HTTP-date or garbage gives no hint. */
    static Optional<Duration> parseRetryAfter(String raw) {
        try {
            double seconds = Double.parseDouble(raw.strip());
            if (Double.isFinite(seconds) && seconds >= 0) {
                return Optional.of(Duration.ofNanos((long) (seconds * 1e9)));
            }
        } catch (NumberFormatException e) {
            // not delta-seconds
        }
        return Optional.empty();
    }

    /** The {@code millpond_errors_total{type}} label: optimistic-concurrency 409s apart from other write failures. */
    public ErrorType errorType() {
        return isConflict() ? ErrorType.HOGLAKE_COMMIT_CONTENTION : ErrorType.WRITE_RETRY;
    }

    /** A retryable 409 on alter or commit. */
    public boolean isConflict() {
        return is(409) && retryable;
    }

    public boolean isNotFound() {
        return is(404);
    }

    /** Another writer created it first; the caller proceeds with what exists. */
    public boolean isAlreadyExists() {
        return is(409) && error.filter("already_exists"::equals).isPresent();
    }

    /** The destination table was dropped and re-created: old clients only see the phrase, new ones the code. */
    public boolean isTableRecreated() {
        return is(409) && (error.filter("table_recreated"::equals).isPresent()
                || detail.toLowerCase(Locale.ROOT).contains("the table was recreated"));
    }

    /** The key already names a different published request: this flush's rows were published before. */
    public boolean isIdempotencyKeyReused() {
        return is(422) && detail.contains("idempotency_key reused");
    }

    /** An {@code add_column} of a name that exists (another pod added it first). */
    public boolean isColumnAlreadyExists() {
        return is(422) && detail.startsWith("column '") && detail.endsWith("' already exists");
    }

    private boolean is(int code) {
        return status.isPresent() && status.getAsInt() == code;
    }

    @Override
    public String toString() {
        return call.name().toLowerCase(Locale.ROOT) + " failed: "
                + (status.isPresent() ? "HTTP " + status.getAsInt() + error.map(e -> " " + e).orElse("") + ": " : "")
                + detail + (retryable ? " (retryable)" : " (permanent)");
    }
}
