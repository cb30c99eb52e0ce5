package dev.millpond.pump;

import dev.millpond.config.RecordHandlingConfig;
import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.observability.FlushTrigger;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.stages.RecordStages;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flush being filled, without a broker: poll batches go in, the size trigger reads the rows' bytes, their Arrow
 * memory and the rejects' heap, and a hand-off takes everything with it and leaves the open flush empty.
 */
class OpenFlushTest {

    private static final long HUGE = Long.MAX_VALUE / 4;

    private final BufferAllocator allocator = new RootAllocator();
    private final MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), "t", "");
    private final List<InFlightFlush> handedOff = new ArrayList<>();

    @AfterEach
    void release() {
        handedOff.forEach(InFlightFlush::release);
        allocator.close();
    }

    @Test
    void theSizeTriggerFiresOnceTheRowsBytesReachFlushSize() {
        OpenFlush open = open(settings(2_000, HUGE, HUGE), 100, 100);
        long offset = 0;
        boolean fired = false;
        for (int batch = 0; batch < 200 && !fired; batch++) {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < 5; i++, offset++) {
                records.add(record(0, offset, "{\"seq\":" + offset + ",\"name\":\"record number " + offset + "\"}"));
            }
            open.add(records, Map.of());
            fired = open.sizeReached();
            assertThat(fired).as("batch %d, %d bytes", batch, open.bytes()).isEqualTo(open.bytes() >= 2_000);
        }
        assertThat(fired).isTrue();
        assertThat(open.bytes()).isGreaterThanOrEqualTo(2_000);
        open.discard();
    }

    @Test
    void theSizeTriggerFiresOnTheRowsArrowMemoryLongBeforeFlushSize() {
        OpenFlush bounded = open(settings(HUGE, 1, HUGE), 100, 100);
        OpenFlush unbounded = open(settings(HUGE, HUGE, HUGE), 100, 100);
        assertThat(bounded.sizeReached()).isFalse();

        bounded.add(List.of(record(0, 0, "{\"seq\":0}")), Map.of());
        unbounded.add(List.of(record(0, 0, "{\"seq\":0}")), Map.of());

        assertThat(bounded.sizeReached()).isTrue();
        assertThat(unbounded.sizeReached()).isFalse();
        bounded.discard();
        unbounded.discard();
    }

    @Test
    void theSizeTriggerFiresOnTheRejectsHeapAndOnFlushSizeIfThatIsSmaller() {
        String bad = "not json " + "x".repeat(500);
        OpenFlush byRejectBound = open(settings(HUGE, HUGE, 400), 100, 100);
        OpenFlush byFlushSize = open(settings(400, HUGE, HUGE), 100, 100);
        OpenFlush neither = open(settings(HUGE, HUGE, HUGE), 100, 100);
        for (OpenFlush open : List.of(byRejectBound, byFlushSize, neither)) {
            open.add(List.of(record(0, 0, bad)), Map.of());
            assertThat(open.records()).isZero();
            assertThat(open.bytes()).isZero();
            assertThat(open.hasRecords()).as("a reject is something to write").isTrue();
        }
        assertThat(byRejectBound.sizeReached()).isTrue();
        assertThat(byFlushSize.sizeReached()).isTrue();
        assertThat(neither.sizeReached()).isFalse();
    }

    @Test
    void withoutFlushSizeAnyPollBatchWithRecordsIsAFlushEvenOfTombstonesOnly() {
        OpenFlush open = open(settings(0, HUGE, HUGE), 100, 100);
        open.add(List.of(), Map.of());
        assertThat(open.sizeReached()).isFalse();

        open.add(List.of(new ConsumerRecord<>("t", 0, 0L, null, null)), Map.of());
        assertThat(open.sizeReached()).isTrue();
        assertThat(open.hasRecords()).isFalse();
        assertThat(open.hasOffsets()).isTrue();

        open.add(List.of(), Map.of());
        assertThat(open.sizeReached()).as("only the last poll batch counts").isFalse();
    }

    @Test
    void aHandOffCarriesTheRowsOffsetsAndRejectsAndLeavesTheOpenFlushEmpty() {
        OpenFlush open = open(settings(HUGE, HUGE, HUGE), 100, 100);
        open.add(List.of(record(0, 10, "{\"seq\":1}"), record(1, 20, "{\"seq\":2}"), record(0, 11, "nope"),
                new ConsumerRecord<>("t", 1, 21L, null, null)), Map.of(1, 25L));
        open.add(List.of(record(0, 12, "{\"seq\":3}")), Map.of());

        InFlightFlush flush = handOff(open, FlushTrigger.SIZE);

        assertThat(flush.trigger).isEqualTo(FlushTrigger.SIZE);
        assertThat(flush.records).isEqualTo(3);
        assertThat(flush.batch.rows()).isEqualTo(3);
        assertThat(flush.batch.batches().stream().mapToInt(b -> b.getRowCount()).sum()).isEqualTo(3);
        assertThat(flush.batch.ranges()).containsExactlyInAnyOrder(new OffsetRange("t", 0, 10, 12),
                new OffsetRange("t", 1, 20, 21));
        assertThat(flush.ledger.nextOffsets()).isEqualTo(Map.of(0, 13L, 1, 25L));
        assertThat(flush.rejects).extracting(RejectedRecord::partition, RejectedRecord::offset)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 11L));
        assertThat(flush.batch.rejects()).isEqualTo(flush.rejects);

        assertThat(open.hasRecords()).isFalse();
        assertThat(open.hasOffsets()).isFalse();
        assertThat(open.records()).isZero();
        assertThat(open.bytes()).isZero();
        assertThat(open.sizeReached()).isFalse();

        open.add(List.of(record(0, 13, "{\"seq\":4}")), Map.of());
        InFlightFlush next = handOff(open, FlushTrigger.TIME);
        assertThat(next.batch.ranges()).containsExactly(new OffsetRange("t", 0, 13, 13));
        assertThat(next.rejects).isEmpty();
        assertThat(next.records).isEqualTo(1);
    }

    @Test
    void aRecordNeedingAColumnPastTheWidthBoundGoesToTheRejectsAndItsOffsetStaysCovered() {
        // _inserted_at and seq fill a table of two columns
        OpenFlush open = open(settings(HUGE, HUGE, HUGE), 2, 100);
        open.add(List.of(record(0, 0, "{\"seq\":1}"), record(0, 1, "{\"seq\":2,\"wide\":\"x\"}"),
                record(0, 2, "{\"seq\":3}")), Map.of());

        assertThat(open.records()).isEqualTo(2);
        InFlightFlush flush = handOff(open, FlushTrigger.TIME);
        assertThat(flush.rejects).singleElement().satisfies(r -> {
            assertThat(r.offset()).isEqualTo(1);
            assertThat(r.reason()).isEqualTo("column_limit");
        });
        assertThat(flush.batch.schema().getFields()).extracting(f -> f.getName()).containsExactly("seq");
        assertThat(flush.batch.ranges()).containsExactly(new OffsetRange("t", 0, 0, 2));
    }

    @Test
    void theWidthBoundCountsAgainFromTheTableOnceTheFlushLanded() {
        OpenFlush open = open(settings(HUGE, HUGE, HUGE), 100, 1);
        open.add(List.of(record(0, 0, "{\"a\":1}"), record(0, 1, "{\"b\":1}")), Map.of());
        InFlightFlush first = handOff(open, FlushTrigger.TIME);
        assertThat(first.rejects).extracting(RejectedRecord::offset).containsExactly(1L);

        open.landed(first, List.of("_inserted_at", "a"));
        open.add(List.of(record(0, 2, "{\"b\":2}"), record(0, 3, "{\"c\":3}")), Map.of());
        InFlightFlush second = handOff(open, FlushTrigger.TIME);
        assertThat(second.records).isEqualTo(1);
        assertThat(second.rejects).extracting(RejectedRecord::offset).containsExactly(3L);
    }

    private InFlightFlush handOff(OpenFlush open, FlushTrigger trigger) {
        InFlightFlush flush = open.handOff(trigger);
        handedOff.add(flush);
        return flush;
    }

    private OpenFlush open(PumpSettings settings, int maxTableColumns, int maxNewColumnsPerFlush) {
        return new OpenFlush(settings, new JsonToArrow(allocator), new BatchUnifier(allocator),
                new RecordStages(RecordHandlingConfig.disabled(), metrics, allocator),
                new ColumnBudget(maxTableColumns, maxNewColumnsPerFlush, allocator, name -> true), true, metrics);
    }

    private static PumpSettings settings(long flushSizeBytes, long pendingMemoryBytes, long pendingRejectBytes) {
        return new PumpSettings("t", flushSizeBytes, 1_000, 500, 0, 4096, pendingMemoryBytes, false,
                pendingRejectBytes);
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String json) {
        return new ConsumerRecord<>("t", partition, offset, null, json.getBytes(StandardCharsets.UTF_8));
    }
}
