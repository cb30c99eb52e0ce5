package dev.millpond.stages;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every accepted and refused timestamptz wire format. */
class TimestampTextTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2024-03-05|2024-03-05T00:00:00Z",
            "2024-03-05 12:34|2024-03-05T12:34:00Z",
            "2024-03-05T12:34|2024-03-05T12:34:00Z",
            "2024-03-05 12:34:56|2024-03-05T12:34:56Z",
            "2024-03-05T12:34:56|2024-03-05T12:34:56Z",
            "2024-03-05 12:34:56.789|2024-03-05T12:34:56.789Z",
            "2024-03-05T12:34:56.789|2024-03-05T12:34:56.789Z",
            "2024-03-05 12:34:56.789012|2024-03-05T12:34:56.789012Z",
            "2024-03-05T12:34:56.789012|2024-03-05T12:34:56.789012Z",
            "2024-03-05 12:34:56.7|2024-03-05T12:34:56.7Z",
            "2024-03-05 12:34:56.78901|2024-03-05T12:34:56.78901Z",
            "2024-02-29 23:59:59|2024-02-29T23:59:59Z",
            "1969-12-31 23:59:59.999999|1969-12-31T23:59:59.999999Z",
            "1970-01-01|1970-01-01T00:00:00Z",
            "0001-01-01|0001-01-01T00:00:00Z",
            "9999-12-31 23:59:59.999999|9999-12-31T23:59:59.999999Z",
    })
    void accepted(String text, String instant) {
        Instant expected = Instant.parse(instant);
        assertThat(TimestampText.parseMicros(text))
                .isEqualTo(expected.getEpochSecond() * 1_000_000L + expected.getNano() / 1_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "2024-03-05T12:34:56Z",             // Z suffix
            "2024-03-05T12:34:56.789Z",
            "2024-03-05T12:34:56+02:00",        // offsets
            "2024-03-05 12:34:56.789-05:00",
            "2024-03-05T12:34:56.7890123",      // 7+ fractional digits
            "2024-03-05T12:34:56.789012345",
            "1709642096",                       // epoch strings
            "1709642096789",
            "2024-03-05T12:34:56.",
            "2024-03-05T12",
            "2024-03-05X12:34:56",
            "2024/03/05",
            "24-03-05",
            "2024-3-5",
            "2024-13-01",
            "2023-02-29",
            "2024-04-31",
            "2024-03-05 24:00:00",
            "2024-03-05 12:60:00",
            "2024-03-05 12:34:60",
            " 2024-03-05",
            "2024-03-05 ",
            "",
            "not a date",
    })
    void refused(String text) {
        assertThat(TimestampText.parseMicros(text)).isEqualTo(TimestampText.INVALID);
    }
}
