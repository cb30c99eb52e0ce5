package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import dev.millpond.kafka.ResumeDecision.TopicHistory;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start position per partition: the greater of Kafka's and the lake's landed offset, the reset policy only where
 * neither knows the partition, a jump over a log start reported, with the reason in words.
 */
class ResumeDecisionTest {

    private static final OptionalLong NONE = OptionalLong.empty();
    private static final AutoOffsetReset EARLIEST = AutoOffsetReset.EARLIEST;
    private static final AutoOffsetReset LATEST = AutoOffsetReset.LATEST;

    @Test
    void theLakeAheadOfKafkaWinsAndCountsTheSkippedReplay() {
        ResumeDecision d = decide(3, of(1100), of(1200), 0, 5000, EARLIEST);
        assertThat(d.offset()).isEqualTo(1200);
        assertThat(d.recommit()).isTrue();
        assertThat(d.replaySkipped()).isEqualTo(100);
        assertThat(d.logLine()).isEqualTo("Partition 3: resuming at 1200 (lake 1200 > kafka 1100: 100 records already written)");
    }

    @Test
    void kafkaAtOrAheadOfTheLakeWins() {
        ResumeDecision d = decide(1, of(1300), of(1200), 0, 5000, EARLIEST);
        assertThat(d.recommit()).isFalse();
        assertThat(d.logLine()).isEqualTo("Partition 1: resuming at 1300 (kafka committed; lake 1200)");
        assertThat(decide(1, of(1200), of(1200), 0, 5000, EARLIEST).recommit()).isFalse();
    }

    @Test
    void withNoOffsetAnywhereTheResetPolicyDecides() {
        assertThat(decide(0, NONE, NONE, 0, 10, EARLIEST).logLine())
                .isEqualTo("Partition 0: resuming at 0 (no offset: auto.offset.reset=earliest)");
        assertThat(decide(0, NONE, NONE, 4, 10, LATEST).logLine())
                .isEqualTo("Partition 0: resuming at 10 (no offset: auto.offset.reset=latest)");
    }

    @Test
    void aLakeOffsetWithNoKafkaCommitCountsFromTheResetTarget() {
        ResumeDecision d = decide(2, NONE, of(40), 0, 100, EARLIEST);
        assertThat(d.logLine()).isEqualTo("Partition 2: resuming at 40 (lake 40 > kafka none, earliest → 0: "
                + "40 records already written)");
    }

    /** Kafka's commits expired (a long stop) or the group was deleted: the lake still knows where it was. */
    @Test
    void aLakeOffsetWinsOverLatestWhenKafkaHasNone() {
        ResumeDecision d = decide(2, NONE, of(40), 0, 100, LATEST);
        assertThat(d.offset()).isEqualTo(40);
        assertThat(d.recommit()).isTrue();
        assertThat(d.replaySkipped()).isZero();
        assertThat(d.logLine()).isEqualTo("Partition 2: resuming at 40 (lake 40; kafka none, latest → 100: the lake's"
                + " offset wins over the reset policy)");
    }

    @Test
    void aLakeOffsetBeyondTheLogEndBelongsToAnOlderTopicAndIsIgnored() {
        ResumeDecision d = decide(0, of(5), of(900), 0, 10, EARLIEST);
        assertThat(d.offset()).isEqualTo(5);
        assertThat(d.logLine()).isEqualTo("Partition 0: resuming at 5 (kafka committed; lake 900 is beyond the log"
                + " end 10 and ignored)");
    }

    @Test
    void aCommitBelowTheLogStartIsAJumpToTheResetTarget() {
        ResumeDecision earliest = decide(0, of(2), NONE, 6, 10, EARLIEST);
        assertThat(earliest.offset()).isEqualTo(6);
        assertThat(earliest.recommit()).isTrue();
        assertThat(earliest.jump()).contains(new OffsetJump(0, 2, 6, 6, EARLIEST));
        assertThat(earliest.jump().orElseThrow().skipped()).isEqualTo(4);
        assertThat(earliest.logLine()).isEqualTo("Partition 0: resuming at 6 (kafka committed 2 is below the log start"
                + " 6: auto.offset.reset=earliest)");
        assertThat(earliest.jump().orElseThrow().describe()).isEqualTo("Partition 0: 4 offsets skipped unread, 2..5:"
                + " the next offset 2 is below the log start 6 (retention or a record deletion passed the pipeline);"
                + " resuming at 6 (auto.offset.reset=earliest)");

        ResumeDecision latest = decide(0, of(2), NONE, 6, 10, LATEST);
        assertThat(latest.offset()).isEqualTo(10);
        assertThat(latest.jump().orElseThrow().skipped()).isEqualTo(8);
    }

    @Test
    void aLakeOffsetBelowTheLogStartIsAJumpTooWhenItIsAheadOfKafka() {
        ResumeDecision d = decide(0, NONE, of(100), 500, 900, EARLIEST);
        assertThat(d.offset()).isEqualTo(500);
        assertThat(d.jump()).contains(new OffsetJump(0, 100, 500, 500, EARLIEST));
        assertThat(d.logLine()).contains("lake 100 is below the log start 500");
        // A lake in the log wins over a stale commit below the log start: nothing is skipped.
        ResumeDecision lakeSaves = decide(0, of(100), of(600), 500, 900, LATEST);
        assertThat(lakeSaves.offset()).isEqualTo(600);
        assertThat(lakeSaves.jump()).isEmpty();
    }

    @Test
    void aCommitBeyondTheLogEndResumesAtTheEndWhateverThePolicy() {
        for (AutoOffsetReset reset : AutoOffsetReset.values()) {
            ResumeDecision d = decide(0, of(50), NONE, 3, 20, reset);
            assertThat(d.offset()).isEqualTo(20);
            assertThat(d.jump()).isEmpty();
            assertThat(d.logLine()).contains("kafka committed 50 is beyond the log end 20");
        }
    }

    @Test
    void aPartitionAddedSinceStartsAtItsBeginningWhateverThePolicy() {
        ResumeDecision d = ResumeDecision.decide(4, NONE, NONE, 0, 30, LATEST, new TopicHistory(Optional.empty(), true));
        assertThat(d.offset()).isZero();
        assertThat(d.logLine()).isEqualTo("Partition 4: resuming at 0 (no offset, but other partitions of the topic"
                + " have one: a partition added since, read from its beginning)");
    }

    @Test
    void aRecreatedTopicIsReadFromItsBeginningWhateverKafkaSays() {
        ResumeDecision d = ResumeDecision.decide(1, of(7), NONE, 0, 30, LATEST,
                new TopicHistory(Optional.of("oldId"), true));
        assertThat(d.offset()).isZero();
        assertThat(d.jump()).isEmpty();
        assertThat(d.logLine()).contains("topic recreated").contains("oldId");
    }

    /** Over random inputs: the rules every decision keeps, whatever the combination. */
    @Test
    void everyDecisionStaysInTheLogAndNeverResumesBelowWhatWasLandedUnlessItSaysSo() {
        Random random = new Random(28);
        for (int i = 0; i < 20_000; i++) {
            long low = random.nextInt(1000);
            long high = low + random.nextInt(1000);
            OptionalLong committed = random.nextBoolean() ? of(random.nextInt(2500)) : NONE;
            OptionalLong lake = random.nextBoolean() ? of(random.nextInt(2500)) : NONE;
            AutoOffsetReset reset = random.nextBoolean() ? EARLIEST : LATEST;
            boolean others = random.nextBoolean();
            ResumeDecision d = ResumeDecision.decide(0, committed, lake, low, high, reset,
                    new TopicHistory(Optional.empty(), others));
            String seen = committed + " " + lake + " [" + low + ", " + high + ") " + reset + " " + others + " → "
                    + d.logLine();
            assertThat(d.offset()).as(seen).isBetween(low, high);
            assertThat(d.replaySkipped()).as(seen).isNotNegative();
            long landed = Math.max(committed.orElse(-1), lake.isPresent() && lake.getAsLong() <= high
                    ? lake.getAsLong() : -1);
            if (landed < 0) {
                assertThat(d.offset()).as(seen).isEqualTo(others || reset == EARLIEST ? low : high);
            } else if (landed < low) {
                assertThat(d.jump()).as(seen).isPresent();
                assertThat(d.jump().get().firstMissing()).as(seen).isEqualTo(landed);
                assertThat(d.jump().get().skipped()).as(seen).isEqualTo(d.offset() - landed);
                assertThat(d.recommit()).as(seen).isTrue();
            } else if (landed <= high) {
                assertThat(d.offset()).as(seen).isEqualTo(landed);
                assertThat(d.jump()).as(seen).isEmpty();
            } else {
                assertThat(d.offset()).as(seen).isEqualTo(high);
            }
        }
    }

    private static ResumeDecision decide(int partition, OptionalLong committed, OptionalLong lake, long low, long high,
                                         AutoOffsetReset reset) {
        return ResumeDecision.decide(partition, committed, lake, low, high, reset, TopicHistory.NONE);
    }

    private static OptionalLong of(long v) {
        return OptionalLong.of(v);
    }
}
