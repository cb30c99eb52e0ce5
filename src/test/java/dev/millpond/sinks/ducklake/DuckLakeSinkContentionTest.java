package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Catalog contention between pods and the connection settings that govern it. */
@ServiceBacked
class DuckLakeSinkContentionTest {

    private static final int FLUSHES = 10;

    @Test
    void twoSinksAppendingToOneTableAtOnceBothSucceedThroughDuckLakesOwnRetries() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink first = f.sink();
            DuckLakeSink second = f.sink();
            first.write(f.batch("{\"pod\":0,\"seq\":-1}"));

            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<Long>> results = new ArrayList<>();
                results.add(pool.submit(appends(f, first, 1)));
                results.add(pool.submit(appends(f, second, 2)));
                for (Future<Long> r : results) {
                    assertThat(r.get(120, TimeUnit.SECONDS)).isEqualTo(FLUSHES * 5L);
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(f.count("SELECT count(*) FROM lake.events WHERE pod IN (1, 2)")).isEqualTo(2 * FLUSHES * 5L);
            assertThat(f.count("SELECT count(DISTINCT (pod, seq)) FROM lake.events WHERE pod IN (1, 2)"))
                    .isEqualTo(2 * FLUSHES * 5L);
        }
    }

    /** Batches are built up front: JsonToArrow and the shared allocator's bookkeeping stay on the test thread. */
    private static Callable<Long> appends(SinkFixture f, DuckLakeSink sink, int pod) {
        List<dev.millpond.sinks.FlushBatch> batches = new ArrayList<>();
        for (int flush = 0; flush < FLUSHES; flush++) {
            String[] rows = new String[5];
            for (int r = 0; r < 5; r++) {
                rows[r] = "{\"pod\":" + pod + ",\"seq\":" + (flush * 5 + r) + "}";
            }
            batches.add(f.batch(rows));
        }
        return () -> {
            long written = 0;
            for (dev.millpond.sinks.FlushBatch b : batches) {
                written += sink.write(b);
            }
            return written;
        };
    }

    @Test
    void theConfiguredMemoryLimitAndRetryCountAreSetOnTheConnection() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink limited = f.sink(f.settings(Optional.empty(), Optional.of("1GiB"), List.of()));
            DuckLakeSink unlimited = f.sink();

            assertThat(limited.setting("memory_limit")).contains("1.0 GiB");
            assertThat(unlimited.setting("memory_limit")).isNotEqualTo(Optional.of("1.0 GiB"));
            assertThat(limited.setting("ducklake_max_retry_count")).contains("100");
        }
    }
}
