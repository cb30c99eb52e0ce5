package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.CommitContention;
import dev.millpond.observability.ErrorType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class CommitContentionTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "TransactionContext Error: Failed to commit DuckLake transaction: exceeded the maximum retry count of 100",
            "IO Error: ERROR:  duplicate key value violates unique constraint \"ducklake_snapshot_pkey\"",
            "ERROR: could not serialize access due to concurrent update",
            "Failed to commit: Transaction conflict - attempting to alter table with index \"1\""})
    void catalogContentionIsLabelledAsSuch(String message) {
        assertThat(CommitContention.isContention(new SQLException(message))).isTrue();
        assertThat(classify(new SQLException(message))).isEqualTo(ErrorType.DUCKLAKE_COMMIT_CONTENTION);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "IO Error: Could not establish connection to S3",
            "Conversion Error: Could not convert string 'x' to INT64",
            "transaction CONFLICT"})
    void everythingElseIsAWriteRetry(String message) {
        assertThat(classify(new SQLException(message))).isEqualTo(ErrorType.WRITE_RETRY);
    }

    @org.junit.jupiter.api.Test
    void markersAreFoundAnywhereInTheCauseChain() {
        Exception wrapped = new RuntimeException("flush failed", new SQLException("could not serialize access"));
        assertThat(classify(wrapped)).isEqualTo(ErrorType.DUCKLAKE_COMMIT_CONTENTION);
        assertThat(classify(new RuntimeException((String) null))).isEqualTo(ErrorType.WRITE_RETRY);
    }

    /** What {@link DuckLakeSink#classify} answers. */
    private static ErrorType classify(Throwable t) {
        return DuckLakeFailures.classify(t).errorType();
    }
}
