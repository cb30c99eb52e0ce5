package dev.millpond.observability;

import io.opentelemetry.api.logs.Severity;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OtlpLogHandlerTest {

    @Test
    void severityFollowsTheLevelForJbossAndJulLevels() {
        assertThat(OtlpLogHandler.severityOf(Level.FATAL)).isEqualTo(Severity.FATAL);
        assertThat(OtlpLogHandler.severityOf(Level.ERROR)).isEqualTo(Severity.ERROR);
        assertThat(OtlpLogHandler.severityOf(java.util.logging.Level.SEVERE)).isEqualTo(Severity.ERROR);
        assertThat(OtlpLogHandler.severityOf(Level.WARN)).isEqualTo(Severity.WARN);
        assertThat(OtlpLogHandler.severityOf(Level.INFO)).isEqualTo(Severity.INFO);
        assertThat(OtlpLogHandler.severityOf(java.util.logging.Level.CONFIG)).isEqualTo(Severity.DEBUG);
        assertThat(OtlpLogHandler.severityOf(Level.DEBUG)).isEqualTo(Severity.DEBUG);
        assertThat(OtlpLogHandler.severityOf(Level.TRACE)).isEqualTo(Severity.TRACE);
    }
}
