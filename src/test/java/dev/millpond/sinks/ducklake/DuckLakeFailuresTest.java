package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.WriteFailure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DuckLake verdicts on error texts DuckDB really raised against a relay in front of the catalog and the S3 server
 * ({@link DuckLakeSinkOutageTest} produces them), and on the ones that must keep the short ladder.
 */
class DuckLakeFailuresTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "Invalid Error: Failed to query most recent snapshot for DuckLake: Failed to execute query \"BEGIN"
                    + " TRANSACTION ISOLATION LEVEL REPEATABLE READ\": server closed the connection unexpectedly",
            "IO Error: Failed to query most recent snapshot for DuckLake: Unable to connect to Postgres at \"host=h"
                    + " port=1 dbname='d' user='u' password='***'\": connection to server at \"127.0.0.1\", port 1"
                    + " failed: Connection refused",
            "TransactionContext Error: Failed to commit: Failed to execute query \"ROLLBACK\": ",
            "IO Error: Could not establish connection error for HTTP PUT to 'http://127.0.0.1:1/b/lake/main/events/"
                    + "ducklake-01a2.parquet'",
            "HTTP Error: Request returned HTTP 503 for HTTP PUT to 'http://127.0.0.1:1/b/x.parquet'",
            "HTTP Error: Request returned HTTP 500 for HTTP GET to 'http://127.0.0.1:1/b/x.parquet'",
            "IO Error: Connection timed out"})
    void transportAndAvailabilityFailuresAreAnOutage(String message) {
        WriteFailure verdict = DuckLakeFailures.classify(new SQLException(message));
        assertThat(verdict.kind()).isEqualTo(WriteFailure.Kind.UNAVAILABLE);
        assertThat(verdict.errorType().label()).isEqualTo("write_retry");
        assertThat(DuckLakeFailures.classify(new RuntimeException("wrapped", new SQLException(message))).kind())
                .as("anywhere in the cause chain").isEqualTo(WriteFailure.Kind.UNAVAILABLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "HTTP Error: Request returned HTTP 403 for HTTP PUT to 'http://127.0.0.1:1/b/x.parquet'",
            "HTTP Error: Request returned HTTP 404 for HTTP PUT to 'http://127.0.0.1:1/no-such-bucket/x.parquet'",
            "Binder Error: Table with name events does not exist!",
            "Conversion Error: Could not convert string 'x' to INT64"})
    void credentialBucketAndSchemaFailuresKeepTheShortLadder(String message) {
        WriteFailure verdict = DuckLakeFailures.classify(new SQLException(message));
        assertThat(verdict.kind()).isEqualTo(WriteFailure.Kind.RETRYABLE);
        assertThat(verdict.errorType().label()).isEqualTo("write_retry");
    }

    @ParameterizedTest
    @ValueSource(strings = {"duplicate key value violates unique constraint", "Transaction conflict"})
    void contentionIsRetryableUnderItsOwnLabelEvenWhenTheTextAlsoLooksLikeAnOutage(String message) {
        WriteFailure verdict = DuckLakeFailures.classify(new SQLException(message + "; connection reset"));
        assertThat(verdict.kind()).isEqualTo(WriteFailure.Kind.RETRYABLE);
        assertThat(verdict.errorType().label()).isEqualTo("ducklake_commit_contention");
    }
}
