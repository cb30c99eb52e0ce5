package dev.millpond.sinks.hoglake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.millpond.config.HoglakeTransform;
import dev.millpond.sinks.OffsetRange;

import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import dev.millpond.sinks.hoglake.parquet.UnsupportedColumnTypeException;
import dev.millpond.sinks.hoglake.schema.PartitionValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FlushKeyAndPartitionValueTest {

    private static final long SEP_5_2026_NOON_MICROS = 1_788_609_600_000_000L;

    @Test
    void uuid5MatchesTheRfcAlgorithm() {
        // Python: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org')
        UUID dns = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        assertThat(FlushKey.uuid5(dns, "python.org")).hasToString("886313e1-3b8a-5372-9b90-0c9aee199e5d");
        assertThat(FlushKey.uuid5(dns, "python.org").version()).isEqualTo(5);
    }

    @Test
    void theKeyNamesTableIncarnationAndTheWholeOffsetRangeInAnyOrder() {
        List<OffsetRange> ranges = List.of(new OffsetRange("events", 3, 10, 19), new OffsetRange("events", 1, 0, 4));
        UUID key = FlushKey.of("c", "ns", "t", "uuid-a", ranges);
        Random random = new Random(11);
        for (int i = 0; i < 5; i++) {
            List<OffsetRange> shuffled = new java.util.ArrayList<>(ranges);
            java.util.Collections.shuffle(shuffled, random);
            assertThat(FlushKey.of("c", "ns", "t", "uuid-a", shuffled)).isEqualTo(key);
        }
        assertThat(FlushKey.of("c", "ns", "t", "uuid-b", ranges)).isNotEqualTo(key); // recreated table
        assertThat(FlushKey.of("c", "ns", "t2", "uuid-a", ranges)).isNotEqualTo(key);
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", List.of(new OffsetRange("events", 3, 11, 19),
                new OffsetRange("events", 1, 0, 4)))).isNotEqualTo(key); // another first offset
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", List.of(new OffsetRange("events", 3, 10, 20),
                new OffsetRange("events", 1, 0, 4)))).isNotEqualTo(key);
        assertThat(key.version()).isEqualTo(5);
    }

    /**
     * A topic deleted and created again under the same name starts its offsets at 0 again: the same ranges of the new
     * topic must not be named like the deleted topic's, or its flushes would be answered from the old receipts.
     */
    @Test
    void theTopicIdTellsARecreatedTopicsRangesFromTheDeletedOnes() {
        List<OffsetRange> old = List.of(range(1, 0, 4, "old-id"), range(3, 10, 19, "old-id"));
        List<OffsetRange> recreated = List.of(range(1, 0, 4, "new-id"), range(3, 10, 19, "new-id"));
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", recreated))
                .isNotEqualTo(FlushKey.of("c", "ns", "t", "uuid-a", old));
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", old)).isEqualTo(FlushKey.of("c", "ns", "t", "uuid-a",
                List.of(range(3, 10, 19, "old-id"), range(1, 0, 4, "old-id"))));
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", old)).isEqualTo(FlushKey.uuid5(FlushKey.NAMESPACE,
                "c/ns/t\nincarnation:uuid-a\nevents:1:0:4:old-id\nevents:3:10:19:old-id"));
    }

    /**
     * Ranges without a topic id (a flush planned by the version before ids, rebuilt after a crash across the upgrade)
     * are named exactly as that version named them, so the server recognises the flush from its receipt.
     */
    @Test
    void rangesWithoutATopicIdKeepTheKeyOfTheVersionBeforeIds() {
        List<OffsetRange> ranges = List.of(new OffsetRange("events", 3, 10, 19), new OffsetRange("events", 1, 0, 4));
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", ranges)).isEqualTo(FlushKey.uuid5(FlushKey.NAMESPACE,
                "c/ns/t\nincarnation:uuid-a\nevents:1:0:4\nevents:3:10:19"));
        // Python: uuid.uuid5(UUID('6f1b6d2e-…'), 'c/ns/t\nincarnation:uuid-a\nevents:1:0:4\nevents:3:10:19')
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", ranges)).hasToString("bdc207d4-0aa5-547b-a292-c5b79854b546");
        assertThat(FlushKey.of("c", "ns", "t", "uuid-a", List.of(range(1, 0, 4, "id"), range(3, 10, 19, "id"))))
                .isNotEqualTo(FlushKey.of("c", "ns", "t", "uuid-a", ranges));
    }

    private static OffsetRange range(int partition, long first, long last, String topicId) {
        return new OffsetRange("events", partition, first, last, java.util.Optional.of(topicId));
    }

    private static String value(HoglakeTransform t, HoglakeColumnType type, Object v) {
        return PartitionValue.of(t, OptionalInt.empty(), type, v);
    }

    @Test
    void temporalTransformsAreEpochRelative() {
        assertThat(value(HoglakeTransform.YEAR, HoglakeColumnType.TIMESTAMPTZ, SEP_5_2026_NOON_MICROS)).isEqualTo("56");
        assertThat(value(HoglakeTransform.MONTH, HoglakeColumnType.TIMESTAMPTZ, SEP_5_2026_NOON_MICROS)).isEqualTo("680");
        assertThat(value(HoglakeTransform.DAY, HoglakeColumnType.TIMESTAMPTZ, SEP_5_2026_NOON_MICROS)).isEqualTo("20701");
        assertThat(value(HoglakeTransform.HOUR, HoglakeColumnType.TIMESTAMPTZ, SEP_5_2026_NOON_MICROS)).isEqualTo("496836");
        assertThat(value(HoglakeTransform.DAY, HoglakeColumnType.DATE, 20701)).isEqualTo("20701");
        assertThat(value(HoglakeTransform.MONTH, HoglakeColumnType.DATE, 20701)).isEqualTo("680");
        // Floored, not truncated, before the epoch.
        assertThat(value(HoglakeTransform.DAY, HoglakeColumnType.TIMESTAMP, -1L)).isEqualTo("-1");
        assertThat(value(HoglakeTransform.YEAR, HoglakeColumnType.TIMESTAMP, null)).isNull();
    }

    @Test
    void bucketValuesFollowTheMurmur3Vectors() {
        assertThat(PartitionValue.of(HoglakeTransform.BUCKET, OptionalInt.of(16), HoglakeColumnType.LONG, 34L))
                .isEqualTo("3");
        assertThat(PartitionValue.of(HoglakeTransform.BUCKET, OptionalInt.of(16), HoglakeColumnType.STRING, "iceberg"))
                .isEqualTo("9");
        UUID u = UUID.fromString("f79c3e09-677c-4bbd-a479-3f349cb785e7");
        assertThat(PartitionValue.of(HoglakeTransform.BUCKET, OptionalInt.of(1000), HoglakeColumnType.UUID, u))
                .isEqualTo(Integer.toString((1488055340 & Integer.MAX_VALUE) % 1000));
        assertThat(PartitionValue.of(HoglakeTransform.BUCKET, OptionalInt.of(1000), HoglakeColumnType.BINARY,
                ByteBuffer.wrap(new byte[] {0, 1, 2, 3}))).isEqualTo(Integer.toString((-188683207 & Integer.MAX_VALUE) % 1000));
        assertThat(PartitionValue.of(HoglakeTransform.BUCKET, OptionalInt.of(1000), HoglakeColumnType.TIMESTAMP,
                1_510_871_468_000_000L)).isEqualTo(Integer.toString((-2047944441 & Integer.MAX_VALUE) % 1000));
        assertThat(PartitionValue.of(HoglakeTransform.BUCKET, OptionalInt.of(1000), HoglakeColumnType.DATE, 17486))
                .isEqualTo(Integer.toString((-653330422 & Integer.MAX_VALUE) % 1000));
    }

    @Test
    void identityIsSpelledAsPyhoglakeSpellsIt() {
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.LONG, 2L)).isEqualTo("2");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.BOOLEAN, true)).isEqualTo("true");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.STRING, "héllo")).isEqualTo("héllo");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.TIMESTAMPTZ, SEP_5_2026_NOON_MICROS))
                .isEqualTo("2026-09-05T12:00:00+00:00");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.TIMESTAMP, SEP_5_2026_NOON_MICROS + 123_000))
                .isEqualTo("2026-09-05T12:00:00.123000");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.TIMESTAMP, -1L))
                .isEqualTo("1969-12-31T23:59:59.999999");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.DATE, 20701)).isEqualTo("2026-09-05");
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.BINARY,
                ByteBuffer.wrap("hi".getBytes(StandardCharsets.UTF_8)))).isEqualTo("aGk=");
        UUID u = UUID.randomUUID();
        assertThat(value(HoglakeTransform.IDENTITY, HoglakeColumnType.UUID, u)).isEqualTo(u.toString());
    }

    @Test
    void transformsOutsideTheirDomainAreRefused() {
        assertThatThrownBy(() -> PartitionValue.check(HoglakeTransform.BUCKET, HoglakeColumnType.DOUBLE))
                .isInstanceOf(UnsupportedColumnTypeException.class);
        assertThatThrownBy(() -> PartitionValue.check(HoglakeTransform.BUCKET, HoglakeColumnType.JSON))
                .isInstanceOf(UnsupportedColumnTypeException.class);
        assertThatThrownBy(() -> PartitionValue.check(HoglakeTransform.HOUR, HoglakeColumnType.DATE))
                .isInstanceOf(UnsupportedColumnTypeException.class);
        assertThatThrownBy(() -> PartitionValue.check(HoglakeTransform.MONTH, HoglakeColumnType.STRING))
                .isInstanceOf(UnsupportedColumnTypeException.class);
        PartitionValue.check(HoglakeTransform.IDENTITY, HoglakeColumnType.JSON);
    }
}
