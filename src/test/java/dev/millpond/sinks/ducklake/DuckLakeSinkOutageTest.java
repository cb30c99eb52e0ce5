package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.FaultRelay;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A live sink whose catalog or object store goes away and comes back (a {@link FaultRelay} in front of each): every
 * failure while it is gone is an outage ({@link WriteFailure.Kind#UNAVAILABLE}), and once it is back the same sink
 * writes again without a restart, each flush exactly once.
 */
@ServiceBacked
class DuckLakeSinkOutageTest {

    private static final Logger LOG = Logger.getLogger(DuckLakeSinkOutageTest.class);
    private static final int MAX_ATTEMPTS_AFTER_RECOVERY = 5;
    /** The second flush holds ids [1, END): enough rows to be written as a parquet file, not inlined in the catalog. */
    private static final int END = 1 + SinkFixture.ABOVE_INLINING_LIMIT;

    @Test
    void theCatalogGoingAwayIsAnOutageAndTheSameSinkWritesOnceItIsBack() throws Exception {
        outage((catalog, s3) -> catalog.stop(), (catalog, s3) -> catalog.start());
    }

    @Test
    void catalogConnectionsResetUnderTheSinkAreAnOutageToo() throws Exception {
        try (SinkFixture f = new SinkFixture();
             FaultRelay catalog = FaultRelay.start("catalog", Services.postgres().host(), Services.postgres().port());
             FaultRelay s3 = s3Relay()) {
            DuckLakeSink sink = f.sink(f.through(catalog, s3, "g"));
            sink.write(flush(f, 0, 1));
            catalog.resetConnections();
            writeUntilLanded(sink, flush(f, 1, END), 1);
            assertExactlyOnce(f, END);
        }
    }

    @Test
    void theObjectStoreGoingAwayIsAnOutageAndTheSameSinkWritesOnceItIsBack() throws Exception {
        outage((catalog, s3) -> s3.stop(), (catalog, s3) -> s3.start());
    }

    @Test
    void anObjectStoreAnswering503IsAnOutageAndNothingHalfWrittenIsReferenced() throws Exception {
        outage((catalog, s3) -> s3.serviceUnavailable(true), (catalog, s3) -> s3.serviceUnavailable(false));
    }

    /** DuckDB 1.5's DuckLake keeps a small insert in the catalog: such a flush needs no object store. */
    @Test
    void aFlushSmallEnoughToBeInlinedLandsInTheCatalogWhileTheObjectStoreIsDown() throws Exception {
        try (SinkFixture f = new SinkFixture();
             FaultRelay catalog = FaultRelay.start("catalog", Services.postgres().host(), Services.postgres().port());
             FaultRelay s3 = s3Relay()) {
            DuckLakeSink sink = f.sink(f.through(catalog, s3, "g"));
            sink.write(flush(f, 0, END));
            int files = f.lake.listDataFiles().size();
            int inlined = SinkFixture.ABOVE_INLINING_LIMIT - 1;

            s3.stop();
            assertThat(sink.write(flush(f, END, END + inlined), 1)).isEqualTo(inlined);

            assertExactlyOnce(f, END + inlined);
            assertThat(f.lake.listDataFiles()).hasSize(files);
        }
    }

    @Test
    void theUploadOfAnAttemptWhoseCommitNeverReachedTheCatalogIsCountedAsAnOrphan() throws Exception {
        try (SinkFixture f = new SinkFixture();
             FaultRelay catalog = FaultRelay.start("catalog", Services.postgres().host(), Services.postgres().port());
             FaultRelay s3 = s3Relay()) {
            DuckLakeSink sink = f.sink(f.through(catalog, s3, "g"));
            sink.write(flush(f, 0, 1));
            FlushBatch second = flush(f, 1, END);
            // Uploads crawl (every chunk either way held 2 s), so once the upload's first chunk has passed the commit is
            // at least one held answer away: the catalog is taken away in between.
            s3.delay(Duration.ofSeconds(2));
            long before = s3.relayedChunks();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> failure.set(catchFailure(() -> sink.write(second, 1))));
            writer.start();
            Await.within(Duration.ofMinutes(1), "the upload under way").until(() -> s3.relayedChunks() > before);
            catalog.stop();
            writer.join(120_000);
            s3.delay(Duration.ZERO);
            catalog.start();
            assertThat(failure.get()).as("the commit could not reach the catalog").isNotNull();
            assertThat(sink.classify(failure.get()).kind()).as("verdict on [%s]", failure.get().getMessage())
                    .isEqualTo(WriteFailure.Kind.UNAVAILABLE);
            List<String> files = f.lake.listDataFiles();
            List<String> referenced = f.rows("SELECT data_file FROM ducklake_list_files('lake', 'events') UNION ALL "
                    + "SELECT data_file FROM ducklake_list_files('lake', '_millpond_offsets')");
            long left = files.stream().filter(k -> referenced.stream().noneMatch(r -> r.endsWith(k))).count();
            LOG.infof("after the failed attempt: %d files, %d referenced, %d left behind", files.size(),
                    referenced.size(), left);

            writeUntilLanded(sink, second, 2);

            assertExactlyOnce(f, END);
            assertThat(left).as("the failed attempt left its upload").isPositive();
            assertThat(f.counter("millpond.orphaned.uploads", null, null)).isEqualTo(left);
        }
    }

    /**
     * A catalog that accepts connections and never answers (a half-dead host, a stuck proxy): opening the sink
     * gives up after libpq's connect_timeout, classified as an outage, instead of waiting forever. Its S3 requests
     * are bounded too.
     */
    @Test
    void aCatalogThatAcceptsButNeverAnswersFailsTheAttachWithinTheConnectTimeout() throws Exception {
        try (SinkFixture f = new SinkFixture();
             FaultRelay catalog = FaultRelay.start("catalog", Services.postgres().host(), Services.postgres().port());
             FaultRelay s3 = s3Relay()) {
            DuckLakeSink healthy = f.sink(f.through(catalog, s3, "g"));
            assertThat(healthy.setting("http_timeout")).as("seconds").contains("30");
            assertThat(healthy.setting("http_retries")).contains("3");

            catalog.blackhole(true); // connections accepted, never answered, nothing behind them
            long started = System.nanoTime();
            java.util.concurrent.CompletableFuture<Throwable> attach = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> catchFailure(() -> f.sink(f.through(catalog, s3, "g"))));
            Throwable failure = attach.get(90, java.util.concurrent.TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - started) / 1e9;
            catalog.blackhole(false);

            assertThat(failure).as("the attach gave up").isNotNull();
            assertThat(seconds).as("seconds to give up").isLessThan(60);
            assertThat(healthy.classify(failure).kind()).as("verdict on [%s]", failure.getMessage())
                    .isEqualTo(WriteFailure.Kind.UNAVAILABLE);
        }
    }

    private interface Fault {
        void apply(FaultRelay catalog, FaultRelay s3);
    }

    private void outage(Fault down, Fault up) throws Exception {
        try (SinkFixture f = new SinkFixture();
             FaultRelay catalog = FaultRelay.start("catalog", Services.postgres().host(), Services.postgres().port());
             FaultRelay s3 = s3Relay()) {
            DuckLakeSink sink = f.sink(f.through(catalog, s3, "g"));
            sink.write(flush(f, 0, 1));

            down.apply(catalog, s3);
            FlushBatch second = flush(f, 1, END);
            int attempt = 1;
            for (; attempt <= 3; attempt++) {
                int a = attempt;
                Throwable failure = catchFailure(() -> sink.write(second, a));
                assertThat(failure).as("attempt %d while the dependency is down", a).isNotNull();
                LOG.infof("attempt %d failed: %s", a, failure.getMessage());
                WriteFailure verdict = sink.classify(failure);
                assertThat(verdict.kind()).as("verdict on: %s", failure.getMessage())
                        .isEqualTo(WriteFailure.Kind.UNAVAILABLE);
                assertThat(verdict.errorType().label()).isEqualTo("write_retry");
            }
            up.apply(catalog, s3);
            writeUntilLanded(sink, second, attempt);
            assertExactlyOnce(f, END);
            assertThat(sink.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(0, (long) END));
        }
    }

    /** Attempts the flush from {@code firstAttempt} on, as the pump would, until it lands; a few tries at most. */
    private static void writeUntilLanded(DuckLakeSink sink, FlushBatch batch, int firstAttempt) throws Exception {
        for (int attempt = firstAttempt; ; attempt++) {
            try {
                assertThat(sink.write(batch, attempt)).isEqualTo(batch.rows());
                return;
            } catch (Exception e) {
                LOG.infof("attempt %d after recovery failed: %s", attempt, e.getMessage());
                assertThat(attempt - firstAttempt).as("attempts after the dependency came back")
                        .isLessThan(MAX_ATTEMPTS_AFTER_RECOVERY - 1);
                Thread.sleep(200);
            }
        }
    }

    private static void assertExactlyOnce(SinkFixture f, long rows) throws Exception {
        assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(rows);
        assertThat(f.count("SELECT count(DISTINCT id) FROM lake.main.events")).isEqualTo(rows);
        // Every file the catalog references exists and reads back whole: nothing half-written is referenced.
        assertThat(f.count("SELECT count(*) FROM (SELECT * FROM lake.main.events)")).isEqualTo(rows);
    }

    private static FaultRelay s3Relay() {
        String[] endpoint = Services.s3().endpoint().split(":");
        return FaultRelay.start("s3", endpoint[0], Integer.parseInt(endpoint[1]));
    }

    /** Rows with ids [from, to) as one flush covering offsets [from, to) of partition 0 of topic "t". */
    private static FlushBatch flush(SinkFixture f, int from, int to) {
        String[] rows = new String[to - from];
        for (int i = from; i < to; i++) {
            rows[i - from] = "{\"id\":" + i + "}";
        }
        FlushBatch b = f.batch(rows);
        return new FlushBatch(b.schema(), b.batches(), b.rows(), List.of(new OffsetRange("t", 0, from, to - 1)));
    }

    private interface Attempt {
        void run() throws Exception;
    }

    private static Throwable catchFailure(Attempt attempt) {
        try {
            attempt.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
