package dev.millpond.sinks;

import java.util.Map;
import java.util.Optional;

/**
 * What a sink's lake recorded about one Kafka topic at startup.
 *
 * @param next          partition → the next offset after the last record a flush recorded, for the live topic (rows
 *                      recorded under its topic id, or under none by a build that did not record ids); a partition
 *                      with none is absent
 * @param recreatedFrom present when the lake recorded this topic name only under another topic id (named here): the
 *                      topic was deleted and created again since, so none of those offsets is the live topic's
 */
public record RecordedOffsets(Map<Integer, Long> next, Optional<String> recreatedFrom) {

    public RecordedOffsets {
        next = Map.copyOf(next);
    }

    /** Offsets recorded without topic ids: all of them are taken to be the live topic's. */
    public static RecordedOffsets of(Map<Integer, Long> next) {
        return new RecordedOffsets(next, Optional.empty());
    }
}
