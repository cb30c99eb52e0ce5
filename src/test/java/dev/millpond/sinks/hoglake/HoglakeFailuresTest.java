package dev.millpond.sinks.hoglake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.observability.ErrorType;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.sinks.WriteFailure.Kind;
import dev.millpond.sinks.hoglake.catalog.CatalogCall;
import dev.millpond.sinks.hoglake.catalog.CatalogFailure;
import dev.millpond.sinks.hoglake.catalog.HoglakeHttpException;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import dev.millpond.sinks.hoglake.parquet.UnsupportedColumnTypeException;
import dev.millpond.sinks.hoglake.schema.HoglakeLayoutException;
import dev.millpond.sinks.hoglake.schema.PayloadColumns;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The verdicts the pump's ladder reads, one per failure the hoglake write path can meet. */
class HoglakeFailuresTest {

    private static CatalogFailure http(CatalogCall call, int status, String error, String detail, String retryAfter) {
        return CatalogFailure.fromHttp(call, new HoglakeHttpException(status,
                Optional.of(new HoglakeWire.ApiError(error, detail, null, null, null)), Optional.ofNullable(retryAfter)));
    }

    @ParameterizedTest
    @CsvSource({
        "COMMIT, 422, validation, PERMANENT, write_retry",
        "COMMIT, 410, expired, PERMANENT, write_retry",
        "COMMIT, 400, bad_request, PERMANENT, write_retry",
        "CREATE, 409, already_exists, PERMANENT, write_retry",
        "COMMIT, 409, commit_conflict, RETRYABLE, hoglake_commit_contention",
        "COMMIT, 409, table_recreated, RETRYABLE, hoglake_commit_contention",
        "ALTER, 409, commit_conflict, RETRYABLE, hoglake_commit_contention",
        "READ, 404, not_found, RETRYABLE, write_retry",
        "COMMIT, 408, timeout, RETRYABLE, write_retry",
        "COMMIT, 429, too_many, RETRYABLE, write_retry",
        "COMMIT, 500, internal_error, UNAVAILABLE, write_retry",
        "COMMIT, 502, bad_gateway, UNAVAILABLE, write_retry",
        "COMMIT, 503, commit_queue_timeout, UNAVAILABLE, write_retry"})
    void catalogStatuses(CatalogCall call, int status, String error, Kind kind, String label) {
        WriteFailure v = HoglakeFailures.classify(new HoglakeWriteException("x", http(call, status, error, "d", null)));
        assertThat(v.kind()).isEqualTo(kind);
        assertThat(v.errorType().label()).isEqualTo(label);
    }

    @Test
    void retryAfterIsCarriedOn503And429Only() {
        assertThat(HoglakeFailures.of(http(CatalogCall.COMMIT, 503, "commit_queue_timeout", "d", "1")).retryAfter())
                .contains(Duration.ofSeconds(1));
        assertThat(HoglakeFailures.of(http(CatalogCall.COMMIT, 429, "slow", "d", "2.5")).retryAfter())
                .contains(Duration.ofMillis(2500));
        assertThat(HoglakeFailures.of(http(CatalogCall.COMMIT, 500, "x", "d", "7")).retryAfter()).isEmpty();
    }

    @Test
    void transportObjectStoreAndLocalFailures() {
        CatalogFailure transport = CatalogFailure.transport(CatalogCall.COMMIT, new IOException("reset"));
        assertThat(HoglakeFailures.of(transport).kind()).isEqualTo(Kind.UNAVAILABLE);
        CatalogFailure malformed = new CatalogFailure(CatalogCall.READ, OptionalInt.empty(), Optional.empty(), "m",
                Optional.empty(), false);
        assertThat(HoglakeFailures.of(malformed).kind()).isEqualTo(Kind.PERMANENT);

        S3Exception slowDown = (S3Exception) S3Exception.builder().statusCode(503).message("SlowDown").build();
        assertThat(HoglakeFailures.classify(slowDown).kind()).isEqualTo(Kind.UNAVAILABLE);
        S3Exception denied = (S3Exception) S3Exception.builder().statusCode(403).message("AccessDenied").build();
        assertThat(HoglakeFailures.classify(denied).kind()).isEqualTo(Kind.RETRYABLE);
        assertThat(HoglakeFailures.classify(SdkClientException.create("connection refused")).kind())
                .isEqualTo(Kind.UNAVAILABLE);
        assertThat(HoglakeFailures.classify(new UnsupportedColumnTypeException("t")).kind())
                .isEqualTo(Kind.PERMANENT);
        assertThat(HoglakeFailures.classify(new HoglakeLayoutException("l")).kind()).isEqualTo(Kind.PERMANENT);
        assertThat(HoglakeFailures.classify(new RuntimeException(new IllegalStateException("?"))).errorType())
                .isEqualTo(ErrorType.WRITE_RETRY);
    }

    @Test
    void payloadKeysHoglakeDrops() {
        assertThat(PayloadColumns.dropReason("team_id")).isEmpty();
        assertThat(PayloadColumns.dropReason("Year")).isEmpty();
        assertThat(PayloadColumns.dropReason("utm-source").orElseThrow().label()).isEqualTo("unsafe_field_name");
        assertThat(PayloadColumns.dropReason("1st").orElseThrow().label()).isEqualTo("unsafe_field_name");
        assertThat(PayloadColumns.dropReason("a".repeat(129)).orElseThrow().label()).isEqualTo("unsafe_field_name");
        assertThat(PayloadColumns.dropReason("_hog").orElseThrow().label()).isEqualTo("reserved_field_name");
        assertThat(PayloadColumns.dropReason("_inserted_at").orElseThrow().label()).isEqualTo("reserved_field_name");
        assertThat(PayloadColumns.dropReason("_Inserted_At")).as("hoglake names are case-sensitive").isEmpty();
    }
}
