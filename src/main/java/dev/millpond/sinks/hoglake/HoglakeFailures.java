package dev.millpond.sinks.hoglake;

import dev.millpond.observability.ErrorType;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.sinks.hoglake.catalog.CatalogFailure;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import dev.millpond.sinks.hoglake.parquet.UnsupportedColumnTypeException;
import dev.millpond.sinks.hoglake.schema.HoglakeLayoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/**
 * The verdict on a failed hoglake write, decided once here. Catalog failures carry their own verdict
 * ({@link CatalogFailure}): permanent for 422, 410, any other refused 4xx and a malformed answer; retryable for 408,
 * 429, 404 (the next attempt re-resolves) and conflicts, counted as {@code hoglake_commit_contention}; an outage for
 * 5xx and transport failures. Object-store failures: 5xx and transport are an outage, anything else is retryable. A
 * type this writer cannot encode and a table laid out against configuration are permanent.
 */
final class HoglakeFailures {

    private HoglakeFailures() {
    }

    static WriteFailure classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HoglakeWriteException w) {
                return of(w.failure());
            }
            if (t instanceof UnsupportedColumnTypeException || t instanceof HoglakeLayoutException
                    || t instanceof ObjectStoreProbeException) {
                return WriteFailure.permanent(ErrorType.WRITE_RETRY);
            }
            if (t instanceof AwsServiceException s3) {
                return s3.statusCode() >= 500 ? WriteFailure.unavailable(ErrorType.WRITE_RETRY)
                        : WriteFailure.retryable(ErrorType.WRITE_RETRY);
            }
            if (t instanceof SdkClientException) {
                return WriteFailure.unavailable(ErrorType.WRITE_RETRY);
            }
            if (t instanceof SdkException) {
                return WriteFailure.retryable(ErrorType.WRITE_RETRY);
            }
        }
        return WriteFailure.retryable(ErrorType.WRITE_RETRY);
    }

    static WriteFailure of(CatalogFailure f) {
        WriteFailure verdict;
        if (!f.retryable()) {
            verdict = WriteFailure.permanent(f.errorType());
        } else if (f.status().isEmpty() || f.status().getAsInt() >= 500) {
            verdict = WriteFailure.unavailable(f.errorType());
        } else {
            verdict = WriteFailure.retryable(f.errorType());
        }
        return f.retryAfter().map(verdict::withRetryAfter).orElse(verdict);
    }
}
