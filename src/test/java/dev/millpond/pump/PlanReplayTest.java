package dev.millpond.pump;

import dev.millpond.kafka.Watermarks;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan codec and the startup checks as values, and the replay's cut on a real consumer with a clock the test
 * advances: records past the plan are held and handed back in order, partitions outside it stay paused until the
 * plan is done, and a plan that cannot complete gives way after its bound.
 */
@ServiceBacked
class PlanReplayTest {

    private final KafkaBroker kafka = Services.kafka();

    @Test
    void metadataRoundTripsAndForeignMetadataIsNoPlan() {
        Random random = new Random(17);
        for (int i = 0; i < 1_000; i++) {
            long first = random.nextLong(0, Long.MAX_VALUE / 2);
            FlushPlan plan = new FlushPlan(random.nextInt(10_000), first, first + random.nextLong(0, 1L << 40),
                    Long.toHexString(random.nextLong()), 1 + random.nextInt(5_000));
            assertThat(plan.metadata().length()).isLessThan(200);
            assertThat(FlushPlan.parse(plan.partition(), plan.metadata())).contains(plan);
        }
        for (String foreign : new String[]{null, "", "some tool's note", "millpond-plan/v2 first=1 last=2 flush=a/1",
                "millpond-plan/v1 first=5 last=4 flush=a/1", "millpond-plan/v1 first=1 last=2 flush=a/0",
                "millpond-plan/v1 first=1 last=99999999999999999999 flush=a/1"}) {
            assertThat(FlushPlan.parse(0, foreign)).as(foreign).isEmpty();
        }
    }

    @Test
    void aPlanIsKeptOnlyIfItCanBeCutAgainExactly() {
        Watermarks marks = new Watermarks(Map.of(0, 0L, 1, 10L), Map.of(0, 100L, 1, 100L));
        FlushPlan p0 = new FlushPlan(0, 5, 20, "f", 2);
        FlushPlan p1 = new FlushPlan(1, 10, 30, "f", 2);
        assertThat(RecordedPlan.check(Map.of(0, p0, 1, p1), marks).partitions()).containsOnlyKeys(0, 1);
        assertThat(RecordedPlan.check(Map.of(0, p0), marks).isEmpty()).as("a partition of it is elsewhere").isTrue();
        assertThat(RecordedPlan.check(Map.of(0, p0, 1, new FlushPlan(1, 10, 30, "g", 2)), marks).isEmpty())
                .as("two plans").isTrue();
        assertThat(RecordedPlan.check(Map.of(0, p0, 1, new FlushPlan(1, 9, 30, "f", 2)), marks).isEmpty())
                .as("gone to retention").isTrue();
        assertThat(RecordedPlan.check(Map.of(0, p0, 1, new FlushPlan(1, 10, 100, "f", 2)), marks).isEmpty())
                .as("beyond the log end").isTrue();
    }

    @Test
    void recordsPastThePlanAreHeldAndHandedBackInOrderOnceThePlanIsDone() {
        String topic = Services.uniqueName("replay");
        kafka.createTopic(topic, 2);
        produce(topic, 0, 30);
        produce(topic, 1, 30);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(topic)) {
            RecordedPlan plan = RecordedPlan.check(Map.of(0, new FlushPlan(0, 0, 9, "f", 1)),
                    new Watermarks(Map.of(0, 0L), Map.of(0, 30L)));
            AtomicLong clock = new AtomicLong();
            PlanReplay replay = new PlanReplay(consumer, topic, plan, Duration.ofSeconds(60), clock::get);
            assertThat(consumer.paused()).containsExactly(new TopicPartition(topic, 1));

            List<ConsumerRecord<byte[], byte[]>> taken = new ArrayList<>();
            PlanReplay.Step step = PlanReplay.Step.HOLD;
            for (int i = 0; i < 200 && step == PlanReplay.Step.HOLD; i++) {
                taken.addAll(replay.admit(poll(consumer)));
                step = replay.step();
            }
            assertThat(step).isEqualTo(PlanReplay.Step.FLUSH);
            assertThat(taken).extracting(ConsumerRecord::partition).containsOnly(0);
            assertThat(taken).extracting(ConsumerRecord::offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L,
                    9L);
            assertThat(consumer.paused()).isEmpty();
            assertThat(replay.incomplete()).isFalse();

            List<ConsumerRecord<byte[], byte[]>> after = new ArrayList<>();
            for (int i = 0; i < 200 && after.size() < 50; i++) {
                after.addAll(replay.admit(poll(consumer)));
            }
            assertThat(after.stream().filter(r -> r.partition() == 0).map(ConsumerRecord::offset).toList())
                    .as("partition 0 resumes right after the plan, nothing lost or repeated")
                    .isEqualTo(java.util.stream.LongStream.range(10, 30).boxed().toList());
            assertThat(after.stream().filter(r -> r.partition() == 1).count()).isEqualTo(30);
        }
    }

    @Test
    void aPlanThatCannotCompleteGivesWayAfterItsBound() {
        String topic = Services.uniqueName("replay-stuck");
        kafka.createTopic(topic, 2);
        produce(topic, 0, 5);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(topic)) {
            // As if the log had been rewritten under the plan: it asks for offsets up to 20, only 0..4 exist.
            RecordedPlan plan = RecordedPlan.check(Map.of(0, new FlushPlan(0, 0, 20, "f", 1)),
                    new Watermarks(Map.of(0, 0L), Map.of(0, 100L)));
            AtomicLong clock = new AtomicLong();
            PlanReplay replay = new PlanReplay(consumer, topic, plan, Duration.ofSeconds(60), clock::get);
            int taken = 0;
            for (int i = 0; i < 20; i++) {
                taken += replay.admit(poll(consumer)).size();
                assertThat(replay.step()).isEqualTo(PlanReplay.Step.HOLD);
            }
            assertThat(taken).isEqualTo(5);
            assertThat(consumer.paused()).containsExactly(new TopicPartition(topic, 1));
            clock.addAndGet(Duration.ofSeconds(61).toNanos());
            assertThat(replay.step()).isEqualTo(PlanReplay.Step.NORMAL);
            assertThat(consumer.paused()).isEmpty();
            assertThat(replay.incomplete()).isFalse();
            assertThat(FlushPlans.replayBound(300)).isEqualTo(Duration.ofSeconds(60));
            assertThat(FlushPlans.replayBound(30_000)).isEqualTo(Duration.ofSeconds(90));
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer(String topic) {
        Map<String, Object> config = kafka.consumerConfig(Services.uniqueName("replay-group"));
        config.put("max.poll.records", 7);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
        consumer.assign(List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)));
        consumer.seekToBeginning(consumer.assignment());
        return consumer;
    }

    private static List<ConsumerRecord<byte[], byte[]>> poll(KafkaConsumer<byte[], byte[]> consumer) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        consumer.poll(Duration.ofMillis(200)).forEach(out::add);
        return out;
    }

    private void produce(String topic, int partition, int n) {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8));
        }
        kafka.produce(topic, partition, values);
    }

}
