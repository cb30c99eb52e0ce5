package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The start position per partition is the greater of Kafka's and the lake's, with the reason in words. */
class ResumeDecisionTest {

    private static final OptionalLong NONE = OptionalLong.empty();

    @Test
    void theLakeAheadOfKafkaWinsAndCountsTheSkippedReplay() {
        ResumeDecision d = ResumeDecision.decide(3, of(1100), of(1100), of(1200), of(5000), AutoOffsetReset.EARLIEST);
        assertThat(d.seekToLake()).isTrue();
        assertThat(d.skipped()).isEqualTo(100);
        assertThat(d.logLine()).isEqualTo("Partition 3: resuming at 1200 (lake 1200 > kafka 1100: 100 records already written)");
    }

    @Test
    void kafkaAtOrAheadOfTheLakeWins() {
        ResumeDecision d = ResumeDecision.decide(1, of(1300), of(1300), of(1200), of(5000), AutoOffsetReset.EARLIEST);
        assertThat(d.seekToLake()).isFalse();
        assertThat(d.logLine()).isEqualTo("Partition 1: resuming at 1300 (kafka committed; lake 1200)");
        assertThat(ResumeDecision.decide(1, of(1200), of(1200), of(1200), of(5000), AutoOffsetReset.EARLIEST)
                .seekToLake()).isFalse();
    }

    @Test
    void withNoOffsetAnywhereTheResetPolicyDecides() {
        ResumeDecision d = ResumeDecision.decide(0, NONE, of(0), NONE, of(10), AutoOffsetReset.EARLIEST);
        assertThat(d.logLine()).isEqualTo("Partition 0: resuming at 0 (no offset: auto.offset.reset=earliest)");
    }

    @Test
    void aLakeOffsetWithNoKafkaCommitCountsFromTheResetTarget() {
        ResumeDecision d = ResumeDecision.decide(2, NONE, of(0), of(40), of(100), AutoOffsetReset.EARLIEST);
        assertThat(d.logLine()).isEqualTo("Partition 2: resuming at 40 (lake 40 > kafka none, earliest → 0: "
                + "40 records already written)");
    }

    @Test
    void aLakeOffsetBeyondTheLogEndBelongsToAnOlderTopicAndIsIgnored() {
        ResumeDecision d = ResumeDecision.decide(0, of(5), of(5), of(900), of(10), AutoOffsetReset.EARLIEST);
        assertThat(d.seekToLake()).isFalse();
        assertThat(d.logLine()).isEqualTo("Partition 0: resuming at 5 (kafka committed; lake 900 is beyond the log"
                + " end 10 and ignored)");
    }

    private static OptionalLong of(long v) {
        return OptionalLong.of(v);
    }
}
