package dev.millpond.observability;

import dev.millpond.config.OtlpLogSettings;
import org.jboss.logging.Logger;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class OtlpLogExportTest {

    private static final Logger LOG = Logger.getLogger("dev.millpond.observability.OtlpLogExportTest");

    @Test
    void exportsLogLinesWithTheTokenAndResourceAttributes() throws Exception {
        String line = "exported line " + UUID.randomUUID();
        try (OtlpReceiver receiver = new OtlpReceiver(200)) {
            try (LogExport export = OtlpLogExport.installIfConfigured(Map.of(
                    "POSTHOG_PROJECT_TOKEN", "t0k",
                    "POSTHOG_LOGS_ENDPOINT", receiver.logsEndpoint(),
                    "MILLPOND_SERVICE_INSTANCE_ID", "events"))) {
                LOG.info(line);
                LOG.error("with a cause", new IllegalStateException("the cause text"));
            } // close flushes the batch before returning

            List<OtlpReceiver.Request> requests = receiver.requests();
            assertThat(requests).isNotEmpty().allSatisfy(request -> {
                assertThat(request.method()).isEqualTo("POST");
                assertThat(request.path()).isEqualTo("/i/v1/logs");
                assertThat(request.authorization()).isEqualTo("Bearer t0k");
                assertThat(request.contentType()).isEqualTo("application/x-protobuf");
            });
            String bodies = String.join("\n", requests.stream().map(OtlpReceiver.Request::bodyText).toList());
            assertThat(bodies)
                    .contains(line, "events", "millpond", "service.instance.id", "service.namespace",
                            "service.version", "logger", "dev.millpond.observability.OtlpLogExportTest", "thread")
                    .contains("exception.type", IllegalStateException.class.getName(),
                            "exception.message", "the cause text", "exception.stacktrace");
        }
        assertThat(installedHandlers()).isEmpty();
    }

    @Test
    void nothingIsInstalledOrSentWithoutAToken() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver(200)) {
            for (Map<String, String> env : List.of(
                    Map.of("POSTHOG_LOGS_ENDPOINT", receiver.logsEndpoint()),
                    Map.of("POSTHOG_PROJECT_TOKEN", " ", "POSTHOG_LOGS_ENDPOINT", receiver.logsEndpoint()))) {
                try (LogExport export = OtlpLogExport.installIfConfigured(env)) {
                    assertThat(export).isNotInstanceOf(OtlpLogExport.class);
                    assertThat(installedHandlers()).isEmpty();
                    LOG.info("not exported");
                }
            }
            // No waiting needed: with no handler on the root logger nothing can take the line, and closing an export
            // flushes its batch to the endpoint before returning, so anything sent has arrived by now.
            assertThat(receiver.requests()).isEmpty();
        }
    }

    @Test
    void theTokenNeverReachesTheLogsEvenWhenTheEndpointRefusesIt() throws Exception {
        String token = "phc_secret_" + UUID.randomUUID();
        CapturingHandler capture = new CapturingHandler();
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.addHandler(capture);
        // A 401 makes the exporter log its failure, the likeliest place for a header to leak.
        try (OtlpReceiver receiver = new OtlpReceiver(401)) {
            try (LogExport export = OtlpLogExport.installIfConfigured(Map.of(
                    "POSTHOG_PROJECT_TOKEN", token, "POSTHOG_LOGS_ENDPOINT", receiver.logsEndpoint()))) {
                LOG.info("a line the endpoint will refuse");
            }
            assertThat(receiver.requests()).isNotEmpty();
        } finally {
            root.removeHandler(capture);
        }
        assertThat(capture.lines).anySatisfy(text -> assertThat(text).contains("Exporting logs via OTLP/HTTP"));
        assertThat(capture.lines).anySatisfy(text -> assertThat(text).contains("401"));
        assertThat(capture.lines).noneSatisfy(text -> assertThat(text).contains(token));
    }

    @Test
    void settingsDefaultsAndRedaction() {
        OtlpLogSettings settings = OtlpLogSettings.fromEnvironment(
                Map.of("POSTHOG_PROJECT_TOKEN", "t0k", "MILLPOND_SERVICE_INSTANCE_ID", ""), () -> "1.2.3").orElseThrow();
        assertThat(settings.endpoint()).isEqualTo("https://us.i.posthog.com/i/v1/logs");
        assertThat(settings.serviceNamespace()).isEqualTo("millpond");
        assertThat(settings.serviceInstanceId()).isEmpty();
        assertThat(settings.serviceVersion()).isEqualTo("1.2.3");
        assertThat(settings.toString()).doesNotContain("t0k");

        OtlpLogSettings overridden = OtlpLogSettings.fromEnvironment(Map.of("POSTHOG_PROJECT_TOKEN", "t0k",
                "MILLPOND_SERVICE_NAMESPACE", "ingest", "MILLPOND_SERVICE_VERSION", "sha256:abc"), () -> "1.2.3")
                .orElseThrow();
        assertThat(OtlpLogExport.resourceAttributes(overridden).asMap().entrySet())
                .extracting(e -> e.getKey().getKey() + "=" + e.getValue())
                .containsExactlyInAnyOrder("service.name=millpond", "service.namespace=ingest",
                        "service.version=sha256:abc", "messaging.system=kafka");
    }

    /**
     * The resource as the receiver decodes it: the pipeline's attributes, OTEL_RESOURCE_ATTRIBUTES merged in beneath
     * them (an explicit setting wins), and Python's level names as the severity text.
     */
    @Test
    void theResourceNamesThePipelineAndMergesOtelResourceAttributes() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver(200)) {
            Map<String, String> env = new java.util.HashMap<>(Map.of(
                    "POSTHOG_PROJECT_TOKEN", "t0k",
                    "POSTHOG_LOGS_ENDPOINT", receiver.logsEndpoint(),
                    "MILLPOND_SERVICE_INSTANCE_ID", "events",
                    "MILLPOND_SERVICE_VERSION", "9.9.9",
                    "KAFKA_TOPIC", "clickhouse_events_json",
                    "DUCKLAKE_TABLE", "events",
                    "DUCKLAKE_DATA_PATH", "s3://lake/events/"));
            env.put("OTEL_RESOURCE_ATTRIBUTES", " deployment.environment = prod-us ,k8s.pod.name=millpond-events-0,"
                    + "k8s.namespace.name=ingest,service.namespace=from-env,millpond.ducklake.table=from-env,"
                    + "note=a%2Cb+c,broken");
            try (LogExport export = OtlpLogExport.installIfConfigured(env)) {
                LOG.warn("a warning");
                LOG.fatal("a fatal line");
            }
            Map<String, String> resource = new java.util.TreeMap<>();
            Map<String, String> severities = new java.util.TreeMap<>();
            for (OtlpReceiver.Request request : receiver.requests()) {
                decode(request.body(), resource, severities);
            }
            assertThat(resource).containsAllEntriesOf(Map.ofEntries(
                    Map.entry("service.name", "millpond"),
                    Map.entry("service.namespace", "millpond"),
                    Map.entry("service.version", "9.9.9"),
                    Map.entry("service.instance.id", "events"),
                    Map.entry("messaging.system", "kafka"),
                    Map.entry("messaging.destination.name", "clickhouse_events_json"),
                    Map.entry("messaging.kafka.consumer.group", "millpond-clickhouse_events_json-events"),
                    Map.entry("millpond.ducklake.table", "events"),
                    Map.entry("millpond.ducklake.data_path", "s3://lake/events/"),
                    Map.entry("deployment.environment", "prod-us"),
                    Map.entry("k8s.pod.name", "millpond-events-0"),
                    Map.entry("k8s.namespace.name", "ingest"),
                    Map.entry("note", "a,b+c"),
                    Map.entry("telemetry.sdk.language", "java")));
            assertThat(resource).doesNotContainKey("broken");
            assertThat(severities).containsEntry("a warning", "WARNING").containsEntry("a fatal line", "CRITICAL");
        }
    }

    /**
     * ExportLogsServiceRequest: resource_logs = 1 { resource = 1 { attributes = 1 { key = 1, value = 2 {
     * string_value = 1 } } }, scope_logs = 2 { log_records = 2 { severity_text = 3, body = 5 { string_value = 1 } } } }.
     */
    private static void decode(byte[] body, Map<String, String> resource, Map<String, String> severities)
            throws Exception {
        for (com.google.protobuf.ByteString resourceLogs : fields(body, 1)) {
            for (com.google.protobuf.ByteString res : fields(resourceLogs.toByteArray(), 1)) {
                for (com.google.protobuf.ByteString kv : fields(res.toByteArray(), 1)) {
                    String key = fields(kv.toByteArray(), 1).get(0).toStringUtf8();
                    List<com.google.protobuf.ByteString> value = fields(kv.toByteArray(), 2);
                    List<com.google.protobuf.ByteString> text = value.isEmpty() ? List.of()
                            : fields(value.get(0).toByteArray(), 1);
                    resource.put(key, text.isEmpty() ? "" : text.get(0).toStringUtf8());
                }
            }
            for (com.google.protobuf.ByteString scopeLogs : fields(resourceLogs.toByteArray(), 2)) {
                for (com.google.protobuf.ByteString logRecord : fields(scopeLogs.toByteArray(), 2)) {
                    List<com.google.protobuf.ByteString> bodyValue = fields(logRecord.toByteArray(), 5);
                    String message = fields(bodyValue.get(0).toByteArray(), 1).get(0).toStringUtf8();
                    severities.put(message, fields(logRecord.toByteArray(), 3).get(0).toStringUtf8());
                }
            }
        }
    }

    private static List<com.google.protobuf.ByteString> fields(byte[] message, int number) throws Exception {
        com.google.protobuf.UnknownFieldSet set = com.google.protobuf.UnknownFieldSet.parseFrom(message);
        return set.hasField(number) ? set.getField(number).getLengthDelimitedList() : List.of();
    }

    private static List<java.util.logging.Handler> installedHandlers() {
        return Arrays.stream(java.util.logging.Logger.getLogger("").getHandlers())
                .filter(OtlpLogHandler.class::isInstance).toList();
    }

    /** Everything that reaches the root logger, as the console would render message and stack trace. */
    private static final class CapturingHandler extends ExtHandler {
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        protected void doPublish(ExtLogRecord record) {
            StringWriter text = new StringWriter().append(record.getFormattedMessage());
            if (record.getThrown() != null) {
                record.getThrown().printStackTrace(new PrintWriter(text));
            }
            lines.add(text.toString());
        }
    }
}
