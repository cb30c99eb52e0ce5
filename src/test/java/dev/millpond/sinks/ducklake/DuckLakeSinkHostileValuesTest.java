package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Valid but hostile values land as rows: a 10,000-character key, a string near the broker's message limit. */
@ServiceBacked
class DuckLakeSinkHostileValuesTest {

    @Test
    void aTenThousandCharacterKeyAndANearlyOneMegabyteStringLand() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();
            String key = "k" + "a".repeat(9_999);
            String blob = "x".repeat(1_000_000);

            sink.write(f.batch("{\"id\":1,\"" + key + "\":7}", "{\"id\":2,\"blob\":\"" + blob + "\"}"));

            assertThat(f.columnTypes()).containsKey(key);
            assertThat(f.rows("SELECT id, \"" + key + "\", length(blob) FROM lake.main.events ORDER BY id"))
                    .containsExactly("1|7|null", "2|null|1000000");
            assertThat(f.errors("schema")).isZero();
        }
    }
}
