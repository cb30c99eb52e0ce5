package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuarkusConfigSourceTest {

    @Test
    void jsonIsTheDefaultWithTheOriginalKeys() {
        QuarkusConfigSource source = new QuarkusConfigSource(Map.of());
        assertThat(source.getValue("quarkus.log.console.json.enabled")).isEqualTo("true");
        assertThat(source.getValue("quarkus.log.console.json.key-overrides"))
                .contains("timestamp=ts", "logger-name=logger", "message=msg", "stack-trace=exc");
        assertThat(source.getValue("quarkus.log.console.json.zone-id")).isEqualTo("UTC");
        assertThat(source.getValue("quarkus.log.level")).isEqualTo("INFO");
        assertThat(source.getValue("quarkus.http.port")).isEqualTo("8000");
    }

    @Test
    void jsonIsMatchedTrimmedAndCaseInsensitively() {
        assertThat(new QuarkusConfigSource(Map.of("MILLPOND_LOG_FORMAT", " JSON "))
                .getValue("quarkus.log.console.json.enabled")).isEqualTo("true");
    }

    @Test
    void anythingElseIsTextPrefixedWithTheOrdinal() {
        QuarkusConfigSource source = new QuarkusConfigSource(Map.of("MILLPOND_LOG_FORMAT", "text",
                "POD_NAME", "millpond-events-03"));
        assertThat(source.getValue("quarkus.log.console.json.enabled")).isEqualTo("false");
        assertThat(source.getValue("quarkus.log.console.format")).contains("[3][%c{1.}]");
        assertThat(new QuarkusConfigSource(Map.of("MILLPOND_LOG_FORMAT", "", "HOSTNAME", "host-7"))
                .getValue("quarkus.log.console.format")).contains("[7]");
        assertThat(new QuarkusConfigSource(Map.of("MILLPOND_LOG_FORMAT", "text", "POD_NAME", "no-ordinal"))
                .getValue("quarkus.log.console.format")).contains("[?]");
    }

    /** Every name Python's logging accepts after the original upper-cases it, with the same meaning. */
    @ParameterizedTest(name = "LOG_LEVEL={0}")
    @CsvSource({"CRITICAL,FATAL", "critical,FATAL", "FATAL,FATAL", "ERROR,ERROR", "WARNING,WARN", "warn,WARN",
            "INFO,INFO", "Debug,DEBUG", "NOTSET,DEBUG", "' info ',INFO"})
    void everyPythonLevelNameReachesQuarkusAsTheSameLevel(String raw, String jboss) {
        assertThat(new QuarkusConfigSource(Map.of("LOG_LEVEL", raw)).getValue("quarkus.log.level")).isEqualTo(jboss);
        assertThat(ConfigLoader.load(TestEnv.with("LOG_LEVEL", raw)).logLevel().jbossLevel()).isEqualTo(jboss);
    }

    /** What the loader validated is exactly what Quarkus gets, including Python int spellings Quarkus would refuse. */
    @ParameterizedTest(name = "MILLPOND_HTTP_PORT={0}")
    @CsvSource({"' 9_000 ',9000", "+8080,8080", "'',8000", "0,0", "65535,65535"})
    void theHttpPortIsTheValidatedOne(String raw, int port) {
        assertThat(new QuarkusConfigSource(Map.of("MILLPOND_HTTP_PORT", raw)).getValue("quarkus.http.port"))
                .isEqualTo(Integer.toString(port));
        assertThat(ConfigLoader.load(TestEnv.with("MILLPOND_HTTP_PORT", raw)).httpPort()).isEqualTo(port);
    }

    /** A value the loader refuses gets a harmless stand-in here; the loader's one-line message stops startup. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({"LOG_LEVEL,LOUD,quarkus.log.level,INFO", "LOG_LEVEL,10,quarkus.log.level,INFO",
            "MILLPOND_HTTP_PORT,http,quarkus.http.port,0", "MILLPOND_HTTP_PORT,70000,quarkus.http.port,0"})
    void anInvalidValueGetsAStandInAndTheLoaderRejectsIt(String variable, String raw, String property,
                                                         String standIn) {
        assertThat(new QuarkusConfigSource(Map.of(variable, raw)).getValue(property)).isEqualTo(standIn);
        assertThatThrownBy(() -> ConfigLoader.load(TestEnv.with(variable, raw)))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith(variable);
    }
}
