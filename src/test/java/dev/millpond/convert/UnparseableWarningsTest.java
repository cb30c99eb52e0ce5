package dev.millpond.convert;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warning for an unparseable record carries no payload byte unless the preview is turned on: not the value, and not
 * the parser's message, which quotes the offending token.
 */
class UnparseableWarningsTest {

    /** Malformed records of several shapes, each carrying a marker that must not reach the log. */
    private static List<String> malformed(String marker) {
        return List.of(
                "{\"email\":\"" + marker + "\"",               // cut short
                marker,                                          // a bare token: Jackson quotes it
                "{\"email\":" + marker + "}",                    // an unquoted value: quoted again
                "{\"a\":1} " + marker,                           // trailing data
                "[\"" + marker + "\"]",                          // not an object
                "{\"" + marker + "\":1,}");                      // a trailing comma after a key
    }

    @Test
    void noPayloadByteIsLoggedByDefaultAndThePreviewShowsIt() throws Exception {
        Random random = new Random(4);
        for (int round = 0; round < 5; round++) {
            String marker = "pii" + Long.toHexString(random.nextLong() | 1L << 62);
            for (String value : malformed(marker)) {
                List<String> quiet = warningsFor(value, false);
                assertThat(quiet).as(value).hasSize(1);
                assertThat(quiet.get(0)).as(value).startsWith("Skipping unparseable JSON value (")
                        .contains(value.getBytes(StandardCharsets.UTF_8).length + " bytes, not logged")
                        .contains("MILLPOND_LOG_PAYLOAD_PREVIEW=true")
                        .doesNotContain(marker).doesNotContain(marker.substring(0, 6));
                // The control: with the preview on, the same record's bytes are in the line.
                List<String> loud = warningsFor(value, true);
                assertThat(loud).as(value).singleElement().asString().contains(marker);
            }
        }
    }

    @Test
    void theParsersReasonIsCutToItsKind() {
        assertThat(UnparseableWarnings.withoutPayload("JsonParseException: Unrecognized token 'secret': was"))
                .isEqualTo("JsonParseException");
        assertThat(UnparseableWarnings.withoutPayload("not valid UTF-8")).isEqualTo("not valid UTF-8");
    }

    /** The WARN lines one fresh converter logs for {@code value} (a fresh one: the rate limit starts open). */
    private static List<String> warningsFor(String value, boolean preview) throws Exception {
        Logger logger = Logger.getLogger(JsonToArrow.class.getName());
        Capture capture = new Capture();
        logger.addHandler(capture);
        try (BufferAllocator allocator = new RootAllocator()) {
            JsonToArrow converter = new JsonToArrow(allocator, preview);
            try (ConvertedBatch batch = converter.convert(List.of(value.getBytes(StandardCharsets.UTF_8)))) {
                assertThat(batch.failures()).as(value).hasSize(1);
            }
        } finally {
            logger.removeHandler(capture);
        }
        return new ArrayList<>(capture.lines);
    }

    private static final class Capture extends ExtHandler {
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        protected void doPublish(ExtLogRecord record) {
            lines.add(record.getFormattedMessage());
        }
    }
}
