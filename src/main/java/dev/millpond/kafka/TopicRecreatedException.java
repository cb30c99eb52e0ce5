package dev.millpond.kafka;

/**
 * The topic was deleted and created again under the same name while the pump ran. Its positions and everything it
 * consumed since belong to the deleted topic, so it stops without committing anything more; the restart finds the
 * lake's offsets recorded under the old topic id and reads the new topic from its beginning. The message is the one
 * line to log.
 */
public final class TopicRecreatedException extends IllegalStateException {

    public TopicRecreatedException(String topic, String wasId, String nowId) {
        super("Topic '" + topic + "' was deleted and created again while millpond ran (topic id " + wasId + ", now "
                + nowId + "): stopping without committing anything more; the restart reads the new topic from its"
                + " beginning");
    }
}
