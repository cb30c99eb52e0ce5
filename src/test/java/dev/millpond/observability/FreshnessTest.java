package dev.millpond.observability;

import dev.millpond.testsupport.MetricsText;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The freshness arithmetic on a clock the test moves (no sleeps): what each thing the pump says of a partition makes
 * the gauges read, at once and at later scrapes; and, over generated histories of one partition whose timestamps
 * follow the log, that the age is exact while the pump holds the oldest record not landed, 0 once everything the
 * consumer knows of has landed, never below the truth while that record is unread (once anything of the partition is
 * known), and never above it before then.
 */
class FreshnessTest {

    private static final double EPSILON = 1e-9;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MillpondMetrics metrics = new MillpondMetrics(registry, "t-events", "", now::get);
    private final Freshness freshness = metrics.freshness();

    @Test
    void aPartitionTakenUpCaughtUpReadsZeroAndOneTakenUpBehindCountsFromTheTakeUp() {
        freshness.takenUp(0, false);
        freshness.takenUp(1, true);
        assertThat(scraped("millpond_freshness_seconds", "0")).isZero();
        assertThat(scraped("millpond_freshness_seconds", "1")).isZero();
        now.addAndGet(2_500);
        assertThat(scraped("millpond_freshness_seconds", "0")).isZero();
        assertThat(scraped("millpond_freshness_seconds", "1")).isEqualTo(2.5);
        assertThat(MetricsText.metric(registry.scrape(), "millpond_last_landed_timestamp_seconds"))
                .as("nothing landed yet: no series").isEmpty();
    }

    @Test
    void heldRecordsReadTheirAgeWhichGrowsAtScrapeTimeUntilTheyLand() {
        freshness.takenUp(0, false);
        long stamped = now.get() - 3_600_000;
        freshness.held(0, stamped);
        assertThat(scraped("millpond_freshness_seconds", "0")).isEqualTo(3_600.0);
        now.addAndGet(10_000); // the pump stands still: no call, the age grows anyway
        assertThat(scraped("millpond_freshness_seconds", "0")).isEqualTo(3_610.0);

        freshness.landed(0, stamped + 2_000);
        freshness.nothingHeld(0, OptionalLong.of(0));
        assertThat(scraped("millpond_freshness_seconds", "0")).isZero();
        assertThat(scraped("millpond_last_landed_timestamp_seconds", "0")).isCloseTo((stamped + 2_000) / 1000.0,
                within(EPSILON));
    }

    @Test
    void unreadRecordsCountFromTheNewerOfTheNewestLandedRecordAndTheLastTimeCaughtUp() {
        freshness.takenUp(0, false);                  // caught up at T
        long caughtUp = now.get();
        now.addAndGet(60_000);
        freshness.nothingHeld(0, OptionalLong.of(4)); // behind, nothing read: since T
        assertThat(freshness.seconds(0)).isEqualTo(60.0);

        long old = caughtUp - 86_400_000;             // a landed record stamped a day before T
        freshness.landed(0, old);
        freshness.nothingHeld(0, OptionalLong.of(4));
        assertThat(freshness.seconds(0)).as("the later bound: T").isEqualTo(60.0);

        long recent = now.get() - 5_000;
        freshness.landed(0, recent);
        freshness.nothingHeld(0, OptionalLong.of(4));
        assertThat(freshness.seconds(0)).as("the later bound: the newest landed record").isEqualTo(5.0);
    }

    @Test
    void aLagTheConsumerDoesNotKnowYetKeepsTheViewItHad() {
        freshness.takenUp(0, false);
        freshness.nothingHeld(0, OptionalLong.empty());
        now.addAndGet(1_000);
        assertThat(freshness.seconds(0)).as("caught up stays caught up").isZero();

        freshness.takenUp(1, true);
        now.addAndGet(1_000);
        freshness.nothingHeld(1, OptionalLong.empty());
        assertThat(freshness.seconds(1)).as("behind stays behind, from the take-up").isEqualTo(1.0);

        freshness.held(1, now.get() - 30_000);
        freshness.landed(1, now.get() - 20_000);
        freshness.nothingHeld(1, OptionalLong.empty());
        assertThat(freshness.seconds(1)).as("was waiting: the bound, not caught up").isEqualTo(20.0);
    }

    @Test
    void aFutureTimestampReadsZeroAndARecordWithoutOneCountsAsUnread() {
        freshness.takenUp(0, false);
        freshness.held(0, now.get() + 60_000); // a producer's clock ahead of ours
        assertThat(freshness.seconds(0)).isZero();

        now.addAndGet(7_000);
        freshness.held(0, -1);                 // no timestamp (message format before 0.10)
        assertThat(freshness.seconds(0)).as("since the last time caught up").isEqualTo(7.0);
        freshness.landed(0, -1);
        assertThat(MetricsText.metric(registry.scrape(), "millpond_last_landed_timestamp_seconds")).isEmpty();
    }

    @Test
    void theSeriesCarryThePipelineLabelsAndThePartition() {
        freshness.takenUp(3, false);
        freshness.landed(3, 1_000);
        String scrape = registry.scrape();
        assertThat(scrape).contains("millpond_freshness_seconds{broker_source=\"\",partition=\"3\",pipeline=\"t-events\",}")
                .contains("millpond_last_landed_timestamp_seconds{broker_source=\"\",partition=\"3\",pipeline=\"t-events\",} 1.0");
    }

    /**
     * One partition over generated histories: records are appended with timestamps that follow the log (their append
     * time); each pump iteration fetches (except, at first, before the consumer has fetched the partition at all),
     * reads some of what was fetched, lands a prefix of what it holds, and says what it knows, exactly as the pump does.
     * Scrapes come after iterations and between them.
     */
    @Test
    void overGeneratedHistoriesTheAgeIsExactWhenHeldZeroWhenLandedAndBoundedWhenUnread() {
        for (long seed = 0; seed < 500; seed++) {
            Random random = new Random(seed);
            AtomicLong clock = new AtomicLong(1_700_000_000_000L + random.nextInt(1_000_000));
            Freshness f = new MillpondMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "p", "",
                    clock::get).freshness();
            List<Long> log = new ArrayList<>();
            for (int i = random.nextInt(3) == 0 ? 0 : random.nextInt(20); i > 0; i--) {
                log.add(clock.get() - random.nextInt(5_000_000)); // a backlog from before the take-up
            }
            log.sort(null);
            f.takenUp(0, !log.isEmpty());
            int read = 0;
            int landed = 0;
            int knownEnd = log.size(); // the end as the take-up read it
            boolean fetched = false;
            boolean anythingKnown = log.isEmpty();
            for (int step = 0; step < 80; step++) {
                clock.addAndGet(random.nextInt(4) == 0 ? 0 : random.nextInt(30_000));
                for (int k = random.nextInt(4) == 0 ? random.nextInt(6) : 0; k > 0; k--) {
                    log.add(clock.get());
                }
                clock.addAndGet(random.nextInt(2_000));
                // One iteration.
                if (fetched || random.nextInt(3) > 0) {
                    fetched = true;
                    knownEnd = log.size();
                }
                if (fetched) {
                    read += random.nextInt(knownEnd - read + 1);
                }
                int landing = landed + random.nextInt(read - landed + 1);
                if (landing > landed && random.nextBoolean()) {
                    landed = landing;
                    f.landed(0, log.get(landed - 1));
                    anythingKnown = true;
                }
                if (read > landed) {
                    f.held(0, log.get(landed));
                } else {
                    f.nothingHeld(0, fetched ? OptionalLong.of(knownEnd - read) : OptionalLong.empty());
                    anythingKnown |= fetched && knownEnd == read;
                }
                for (int scrape = 0; scrape < 2; scrape++) {
                    double reported = f.seconds(0);
                    String at = "seed " + seed + " step " + step + " scrape " + scrape;
                    if (landed == knownEnd) {
                        assertThat(reported).as("everything known landed: " + at).isZero();
                    } else {
                        double age = Math.max(0, clock.get() - log.get(landed)) / 1000.0;
                        if (read > landed) {
                            assertThat(reported).as("held: exact, " + at).isEqualTo(age);
                        } else if (anythingKnown) {
                            assertThat(reported).as("unread: an upper bound, " + at).isGreaterThanOrEqualTo(age);
                        } else {
                            assertThat(reported).as("unread, nothing known yet: from the take-up, " + at)
                                    .isLessThanOrEqualTo(age);
                        }
                    }
                    clock.addAndGet(random.nextInt(5_000)); // a scrape between iterations
                }
            }
        }
    }

    private double scraped(String name, String partition) {
        return MetricsText.metric(registry.scrape(), name, "partition", partition).orElseThrow();
    }
}
