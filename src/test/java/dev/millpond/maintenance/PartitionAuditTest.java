package dev.millpond.maintenance;

import dev.millpond.maintenance.PartitionAudit.Flush;
import dev.millpond.maintenance.PartitionAudit.Kind;
import dev.millpond.maintenance.PartitionAudit.Range;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionAuditTest {

    private static final PartitionAudit.RecordProbe RECORDS_EVERYWHERE = (p, r) -> Optional.of(true);

    private static Flush flush(long first, long next) {
        return new Flush(0, Optional.of(first), next);
    }

    @Test
    void contiguousFlushesInAnyOrderAreClean() {
        Random random = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            List<Flush> flushes = new ArrayList<>();
            long at = random.nextInt(1000);
            long start = at;
            int n = 1 + random.nextInt(30);
            for (int i = 0; i < n; i++) {
                long size = 1 + random.nextInt(500);
                flushes.add(flush(at, at + size));
                at += size;
            }
            Collections.shuffle(flushes, random);
            PartitionAudit audit = PartitionAudit.of(0, flushes, start, at + 10, RECORDS_EVERYWHERE);
            assertThat(audit.clean()).isTrue();
            assertThat(audit.covered()).containsExactly(new Range(start, at));
            assertThat(audit.firstInLake()).contains(start);
            assertThat(audit.nextInLake()).contains(at);
            assertThat(audit.lag()).isEqualTo(10);
        }
    }

    @Test
    void aDeletedRowShowsAsExactlyItsRange() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            List<Flush> flushes = new ArrayList<>();
            long at = 0;
            int n = 3 + random.nextInt(20);
            for (int i = 0; i < n; i++) {
                long size = 1 + random.nextInt(100);
                flushes.add(flush(at, at + size));
                at += size;
            }
            Flush deleted = flushes.remove(1 + random.nextInt(n - 2));
            PartitionAudit audit = PartitionAudit.of(0, flushes, 0, at, RECORDS_EVERYWHERE);
            assertThat(audit.findings()).singleElement().satisfies(f -> {
                assertThat(f.kind()).isEqualTo(Kind.GAP);
                assertThat(f.range()).isEqualTo(new Range(deleted.first().orElseThrow(), deleted.next()));
            });
            assertThat(audit.covered()).containsExactly(new Range(0, deleted.first().orElseThrow()),
                    new Range(deleted.next(), at));
        }
    }

    @Test
    void aReplayedRangeIsAnOverlap() {
        PartitionAudit audit = PartitionAudit.of(0, List.of(flush(0, 100), flush(100, 200), flush(150, 300)), 0, 300,
                RECORDS_EVERYWHERE);
        assertThat(audit.findings()).singleElement().isEqualTo(new PartitionAudit.Finding(Kind.OVERLAP,
                new Range(150, 200), "recorded by two flushes"));
        assertThat(audit.covered()).containsExactly(new Range(0, 300));
    }

    @Test
    void aGapWithoutRecordsIsNotAFindingAndAnUncheckableOneIs() {
        List<Flush> flushes = List.of(flush(0, 10), flush(11, 20)); // offset 10: a commit marker
        assertThat(PartitionAudit.of(0, flushes, 0, 20, (p, r) -> Optional.of(false)).clean()).isTrue();
        PartitionAudit unknown = PartitionAudit.of(0, flushes, 0, 20, (p, r) -> Optional.empty());
        assertThat(unknown.findings()).singleElement().satisfies(f -> assertThat(f.kind()).isEqualTo(Kind.GAP));
    }

    /** The pipeline jumped over offsets retention had deleted (it was stopped or lagging): lost, not merely a gap. */
    @Test
    void aGapTheLogStartHasPassedIsALossToRetention() {
        List<Flush> flushes = List.of(flush(0, 100), flush(500, 600));
        PartitionAudit below = PartitionAudit.of(0, flushes, 500, 600, RECORDS_EVERYWHERE);
        assertThat(below.findings()).containsExactly(new PartitionAudit.Finding(Kind.RETENTION_LOSS,
                new Range(100, 500), "retention deleted these offsets before the lake received them"));
        assertThat(below.describe()).contains("  retention loss [100, 500) (400 offsets): retention deleted these"
                + " offsets before the lake received them");

        // Under latest the jump also passed records still in the log: those are a gap Kafka still holds.
        PartitionAudit straddling = PartitionAudit.of(0, flushes, 300, 600, RECORDS_EVERYWHERE);
        assertThat(straddling.findings()).extracting(PartitionAudit.Finding::kind, PartitionAudit.Finding::range)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Kind.RETENTION_LOSS, new Range(100, 300)),
                        org.assertj.core.groups.Tuple.tuple(Kind.GAP, new Range(300, 500)));
    }

    @Test
    void retentionPastTheLastFlushIsALoss() {
        PartitionAudit audit = PartitionAudit.of(0, List.of(flush(0, 50)), 80, 120, RECORDS_EVERYWHERE);
        assertThat(audit.findings()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(Kind.RETENTION_LOSS);
            assertThat(f.range()).isEqualTo(new Range(50, 80));
        });
        assertThat(audit.lag()).isEqualTo(70);
    }

    @Test
    void legacyRowsWithoutAFirstOffsetAreAssumedContiguousAndCounted() {
        List<Flush> flushes = List.of(new Flush(0, Optional.empty(), 40), new Flush(0, Optional.empty(), 90),
                flush(90, 120), flush(130, 150));
        PartitionAudit audit = PartitionAudit.of(0, flushes, 0, 150, RECORDS_EVERYWHERE);
        assertThat(audit.legacyRows()).isEqualTo(2);
        assertThat(audit.findings()).singleElement().satisfies(f -> assertThat(f.range()).isEqualTo(new Range(120, 130)));
        assertThat(audit.describe().get(1)).contains("2 row(s) written before first_offset");
    }

    @Test
    void aPartitionWithoutFlushesReportsItsWholeLogAsLag() {
        PartitionAudit audit = PartitionAudit.of(3, List.of(), 5, 25, RECORDS_EVERYWHERE);
        assertThat(audit.clean()).isTrue();
        assertThat(audit.lag()).isEqualTo(20);
        assertThat(audit.describe().get(0)).startsWith("partition 3: no flush recorded; log [5, 25); lag 20");
    }
}
