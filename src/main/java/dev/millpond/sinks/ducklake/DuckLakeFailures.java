package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.CommitContention;
import dev.millpond.observability.ErrorType;
import dev.millpond.sinks.WriteFailure;

import java.util.List;
import java.util.Locale;

/**
 * The verdict on a failed DuckLake write, from the error texts DuckDB passes up from its Postgres catalog client
 * (libpq) and its S3 client (httpfs), anywhere in the cause chain. DuckDB raises every one of them as a plain
 * {@code SQLException}, so the text is all there is to go on.
 *
 * <p>Contention between pods is retryable under its own label. A catalog or object store that cannot be reached or
 * answers "unavailable" is an outage the pump waits out. Everything else keeps the short ladder under
 * {@code write_retry}: no DuckLake write error is treated as permanent, because a refused statement is often fixed by
 * the retry's re-read of the catalog.
 */
final class DuckLakeFailures {

    /** Lower-case fragments of transport and availability errors, measured against a relay in front of each. */
    static final List<String> UNAVAILABLE_MARKERS = List.of(
            // libpq / the Postgres catalog
            "connection refused", "connection reset", "server closed the connection", "could not connect",
            "unable to connect to postgres", "no connection to the server", "connection timed out",
            "terminating connection", "the database system is starting up", "the database system is shutting down",
            "ssl connection has been closed", "broken pipe", "could not send data", "could not receive data",
            "connection to server", "lost synchronization with server", "connection is closed",
            // a commit that failed and whose rollback could not even be sent: the catalog connection is gone
            "failed to execute query \"rollback\"",
            // httpfs / the object store
            "could not establish connection", "timed out", "timeout", "http 500", "http 502", "http 503", "http 504",
            "service unavailable", "slow down", "slowdown", "internal server error", "bad gateway",
            "gateway timeout", "failed to read connection", "connection error");

    private DuckLakeFailures() {
    }

    static WriteFailure classify(Throwable failure) {
        if (inChain(failure, PartitionFenceException.class)) {
            return WriteFailure.permanent(ErrorType.OFFSET_FENCE);
        }
        if (inChain(failure, PartitionLockWaitException.class)) {
            return WriteFailure.retryable(ErrorType.DUCKLAKE_COMMIT_CONTENTION);
        }
        if (CommitContention.isContention(failure)) {
            return WriteFailure.retryable(ErrorType.DUCKLAKE_COMMIT_CONTENTION);
        }
        if (isUnavailable(failure)) {
            return WriteFailure.unavailable(ErrorType.WRITE_RETRY);
        }
        return WriteFailure.retryable(ErrorType.WRITE_RETRY);
    }

    private static boolean inChain(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            for (String marker : UNAVAILABLE_MARKERS) {
                if (message.contains(marker)) {
                    return true;
                }
            }
        }
        return false;
    }
}
