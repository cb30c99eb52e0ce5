package dev.millpond.sinks.ducklake;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The creation time DuckLake writes into its file names (UUID v7), which bounds the orphan search. */
class OrphanedUploadsTest {

    @Test
    void readsTheMillisecondsOfAVersion7FileName() {
        long millis = OrphanedUploads.createdMillis(
                "s3://b/lake/main/events/year=2026/ducklake-01a23120-d3e6-7263-ae1f-88060a12a012.parquet");
        assertThat(millis).isEqualTo(0x01a23120d3e6L);
        assertThat(Instant.ofEpochMilli(millis).toString()).startsWith("2026-");
    }

    @Test
    void otherNamesHaveNoTime() {
        assertThat(OrphanedUploads.createdMillis("s3://b/lake/main/events/data.parquet")).isEqualTo(-1);
        assertThat(OrphanedUploads.createdMillis("ducklake-01a23120-d3e6-4263-ae1f-88060a12a012.parquet"))
                .as("a version-4 UUID").isEqualTo(-1);
    }
}
