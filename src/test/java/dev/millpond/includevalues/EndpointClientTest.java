package dev.millpond.includevalues;

import dev.millpond.config.IncludeValuesPolling;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The include-values response body is capped: a body past the cap fails the poll rather than holding the poller; a
 * body is parsed as it arrives.
 */
class EndpointClientTest {

    private final ScriptedEndpoint endpoint = new ScriptedEndpoint();

    @AfterEach
    void close() {
        endpoint.close();
    }

    @Test
    void aBodyUpToTheCapIsReadAndOneByteMoreIsRefused() throws Exception {
        int cap = 64 * 1024;
        String atCap = body(cap);
        String overCap = body(cap + 1);
        endpoint.thenJson(atCap);
        endpoint.thenJson(overCap);
        EndpointClient client = new EndpointClient(new IncludeValuesPolling(endpoint.url(), Duration.ofSeconds(60), 5,
                Duration.ofSeconds(10), Duration.ofSeconds(10), Optional.empty()), cap, 1L << 20);

        assertThat(client.fetch(Duration.ofSeconds(10)).values().ints()).isEqualTo(java.util.Arrays.stream(
                atCap.substring(1, atCap.length() - 1).split(",")).map(Long::valueOf)
                .collect(java.util.stream.Collectors.toSet()));
        assertThatThrownBy(() -> client.fetch(Duration.ofSeconds(10))).isInstanceOf(PollFailure.class)
                .hasMessageContaining("larger than " + cap + " bytes");
    }

    @Test
    void theProductionCapLeavesRoomForAMillionIds() {
        assertThat(EndpointClient.MAX_BODY_BYTES).isGreaterThanOrEqualTo(1_000_000 * 12);
    }

    /** A JSON array of ids exactly {@code bytes} long (at least 2). */
    private static String body(int bytes) {
        StringBuilder b = new StringBuilder("[");
        while (b.length() < bytes - 1) {
            b.append(b.length() == 1 ? "1" : ",1");
        }
        while (b.length() > bytes - 1) {
            b.setLength(b.length() - 1);
        }
        if (b.charAt(b.length() - 1) == ',') {
            b.setCharAt(b.length() - 1, '2');
        }
        return b.append(']').toString();
    }
}
