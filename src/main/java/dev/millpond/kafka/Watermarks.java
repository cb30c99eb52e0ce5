package dev.millpond.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Low (log-start) and high offsets of partitions, fetched with two batched AdminClient calls. The high offset is the
 * end a consumer of the given isolation level can read to: the high watermark under {@code read_uncommitted}, the
 * last stable offset (before the first open transaction) under {@code read_committed}.
 */
public record Watermarks(Map<Integer, Long> low, Map<Integer, Long> high) {

    /** The high watermark: every offset written, open transactions included. */
    public static Watermarks fetch(Admin admin, String topic, List<Integer> partitions, long timeoutMs) throws Exception {
        return fetch(admin, topic, partitions, timeoutMs, IsolationLevel.READ_UNCOMMITTED);
    }

    public static Watermarks fetch(Admin admin, String topic, List<Integer> partitions, long timeoutMs,
                                   IsolationLevel isolation) throws Exception {
        return new Watermarks(list(admin, topic, partitions, OffsetSpec.earliest(), timeoutMs, isolation),
                list(admin, topic, partitions, OffsetSpec.latest(), timeoutMs, isolation));
    }

    private static Map<Integer, Long> list(Admin admin, String topic, List<Integer> partitions, OffsetSpec spec,
                                           long timeoutMs, IsolationLevel isolation) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p : partitions) {
            request.put(new TopicPartition(topic, p), spec);
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                admin.listOffsets(request, new ListOffsetsOptions(isolation)).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        Map<Integer, Long> out = new HashMap<>();
        result.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }
}
