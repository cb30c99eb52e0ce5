package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three pods (separate DuckDB connections, one catalog) create the same table and evolve it with different new
 * columns at the same time. Whatever DuckLake raises is handled the way the pump does: back off, retry as the next attempt.
 */
@ServiceBacked
class DuckLakeSinkConcurrentPodsTest {

    private static final Logger LOG = Logger.getLogger(DuckLakeSinkConcurrentPodsTest.class);
    private static final int PODS = 3;
    private static final int FLUSHES = 8;
    private static final int ROWS = 20;
    private static final int ATTEMPTS = 10;

    @Test
    void threePodsCreatingAndEvolvingOneTableLoseNoRowsAndWriteNoneTwice() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            List<DuckLakeSink> sinks = new ArrayList<>();
            List<List<FlushBatch>> work = new ArrayList<>();
            for (int pod = 0; pod < PODS; pod++) {
                sinks.add(f.sink());
                work.add(flushesOf(f, pod));
            }
            AtomicInteger retries = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(PODS);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (int pod = 0; pod < PODS; pod++) {
                    results.add(pool.submit(pumpLike(sinks.get(pod), work.get(pod), start, retries)));
                }
                start.countDown();
                for (Future<Long> r : results) {
                    assertThat(r.get(150, TimeUnit.SECONDS)).isEqualTo((long) FLUSHES * ROWS);
                }
            } finally {
                pool.shutdownNow();
            }
            LOG.infof("Concurrent pods: %d retried attempt(s)", retries.get());

            long expected = (long) PODS * FLUSHES * ROWS;
            assertThat(f.count("SELECT count(*) FROM lake.events")).isEqualTo(expected);
            assertThat(f.count("SELECT count(DISTINCT (pod, seq)) FROM lake.events")).isEqualTo(expected);
            for (int pod = 0; pod < PODS; pod++) {
                for (int c = 0; c < 3; c++) {
                    String column = "p" + pod + "_c" + c;
                    assertThat(f.columnTypes()).containsKey(column);
                    assertThat(f.count("SELECT count(" + column + ") FROM lake.events")).isPositive();
                }
            }
        }
    }

    /** Flush k of pod p carries the shared columns plus p{p}_c{k mod 3}: each pod adds its own columns. */
    private static List<FlushBatch> flushesOf(SinkFixture f, int pod) {
        List<FlushBatch> flushes = new ArrayList<>();
        for (int flush = 0; flush < FLUSHES; flush++) {
            String[] rows = new String[ROWS];
            for (int r = 0; r < ROWS; r++) {
                rows[r] = "{\"pod\":" + pod + ",\"seq\":" + (flush * ROWS + r) + ",\"p" + pod + "_c" + (flush % 3)
                        + "\":\"v" + r + "\"}";
            }
            flushes.add(f.batch(rows));
        }
        return flushes;
    }

    /** The pump's retry ladder in miniature: on failure, back off, try the same flush as the next attempt. */
    private static Callable<Long> pumpLike(DuckLakeSink sink, List<FlushBatch> flushes, CountDownLatch start,
            AtomicInteger retries) {
        return () -> {
            start.await();
            long written = 0;
            for (FlushBatch flush : flushes) {
                for (int attempt = 1; ; attempt++) {
                    try {
                        written += sink.write(flush, attempt);
                        break;
                    } catch (Exception e) {
                        if (attempt == ATTEMPTS) {
                            throw e;
                        }
                        retries.incrementAndGet();
                        LOG.infof("attempt %d failed (%s): %s", attempt, sink.classify(e).errorType().label(), e.getMessage());
                        Thread.sleep(50L * attempt);
                    }
                }
            }
            return written;
        };
    }
}
