package dev.millpond.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Low (log-start) and high watermarks of partitions, fetched with two batched AdminClient calls. */
public record Watermarks(Map<Integer, Long> low, Map<Integer, Long> high) {

    public static Watermarks fetch(Admin admin, String topic, List<Integer> partitions, long timeoutMs) throws Exception {
        return new Watermarks(list(admin, topic, partitions, OffsetSpec.earliest(), timeoutMs),
                list(admin, topic, partitions, OffsetSpec.latest(), timeoutMs));
    }

    private static Map<Integer, Long> list(Admin admin, String topic, List<Integer> partitions, OffsetSpec spec,
                                           long timeoutMs) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p : partitions) {
            request.put(new TopicPartition(topic, p), spec);
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                admin.listOffsets(request).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        Map<Integer, Long> out = new HashMap<>();
        result.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }
}
