package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Pods of a new deployment start together and all ATTACH a catalog that nobody has initialised yet. */
@ServiceBacked
class DuckLakeSinkAttachTest {

    @Test
    void podsAttachingAFreshCatalogAtOnceAllConnectAndWrite() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            int pods = 4;
            ExecutorService pool = Executors.newFixedThreadPool(pods);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<DuckLakeSink>> sinks = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                sinks.add(pool.submit(() -> {
                    start.await();
                    return fixture.sink();
                }));
            }
            start.countDown();
            long written = 0;
            for (Future<DuckLakeSink> sink : sinks) {
                written += sink.get().write(fixture.batch("{\"pod\":1}"));
            }
            pool.shutdown();
            assertThat(written).isEqualTo(pods);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events")).isEqualTo(pods);
        }
    }
}
