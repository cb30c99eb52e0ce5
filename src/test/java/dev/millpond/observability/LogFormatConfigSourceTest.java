package dev.millpond.observability;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LogFormatConfigSourceTest {

    @Test
    void jsonIsTheDefaultWithTheOriginalKeys() {
        LogFormatConfigSource source = new LogFormatConfigSource(Map.of());
        assertThat(source.getValue("quarkus.log.console.json.enabled")).isEqualTo("true");
        assertThat(source.getValue("quarkus.log.console.json.key-overrides"))
                .contains("timestamp=ts", "logger-name=logger", "message=msg", "stack-trace=exc");
        assertThat(source.getValue("quarkus.log.console.json.zone-id")).isEqualTo("UTC");
    }

    @Test
    void jsonIsMatchedTrimmedAndCaseInsensitively() {
        assertThat(new LogFormatConfigSource(Map.of("MILLPOND_LOG_FORMAT", " JSON "))
                .getValue("quarkus.log.console.json.enabled")).isEqualTo("true");
    }

    @Test
    void anythingElseIsTextPrefixedWithTheOrdinal() {
        LogFormatConfigSource source = new LogFormatConfigSource(Map.of("MILLPOND_LOG_FORMAT", "text",
                "POD_NAME", "millpond-events-03"));
        assertThat(source.getValue("quarkus.log.console.json.enabled")).isEqualTo("false");
        assertThat(source.getValue("quarkus.log.console.format")).contains("[3][%c{1.}]");
        assertThat(new LogFormatConfigSource(Map.of("MILLPOND_LOG_FORMAT", "", "HOSTNAME", "host-7"))
                .getValue("quarkus.log.console.format")).contains("[7]");
    }
}
