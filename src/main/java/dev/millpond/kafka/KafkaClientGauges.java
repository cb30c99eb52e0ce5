package dev.millpond.kafka;

import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.Node;
import org.jboss.logging.Logger;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The {@code millpond_rdkafka_*} gauges (docs/decisions.md, "No invented librdkafka statistics") from the Java
 * consumer's own metrics. The Java client has no librdkafka statistics, so only series with a true equivalent are
 * exported; the others are not registered at all rather than exported with an invented value:
 *
 * <table>
 *   <caption>librdkafka statistic → Java consumer metric</caption>
 *   <tr><th>millpond metric</th><th>librdkafka source</th><th>Java consumer</th></tr>
 *   <tr><td>{@code millpond_rdkafka_broker_rtt_avg_seconds{broker}}</td><td>{@code brokers[].rtt.avg} (µs)</td>
 *       <td>{@code consumer-node-metrics} {@code request-latency-avg}{node-id} (ms) ÷ 1000. The Java consumer
 *       records it for Fetch responses only; like librdkafka's rtt on a consumer, it includes the broker's
 *       {@code fetch.max.wait.ms} wait on a quiet partition</td></tr>
 *   <tr><td>{@code millpond_rdkafka_broker_rtt_p99_seconds{broker}}</td><td>{@code brokers[].rtt.p99}</td>
 *       <td>none: the client keeps avg and max only, no percentiles — not registered</td></tr>
 *   <tr><td>{@code millpond_rdkafka_replyq}</td><td>{@code replyq} (librdkafka's op queue to the application)</td>
 *       <td>none: no such queue — not registered</td></tr>
 *   <tr><td>{@code millpond_rdkafka_msg_cnt}, {@code _msg_size}</td><td>{@code msg_cnt}, {@code msg_size}
 *       (messages in the <em>producer</em> queues; always 0 on a consumer)</td>
 *       <td>none: the classic consumer exports no count or size of its fetch buffer — not registered</td></tr>
 * </table>
 *
 * <p>Brokers are named as librdkafka names them ({@code host:port/nodeId}, prefixed {@code ssl://},
 * {@code sasl_plaintext://} or {@code sasl_ssl://} unless plaintext) so existing dashboards keep their series.
 * librdkafka only updates these gauges on its statistics callback every {@code STATS_INTERVAL_MS} and leaves them
 * alone while a value is −1; likewise a broker's series appears with its first measured latency, keeps its last
 * value while the client's window is empty, and brokers are looked for every {@code STATS_INTERVAL_MS} (0 disables,
 * as {@code statistics.interval.ms=0} did).
 */
public final class KafkaClientGauges implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KafkaClientGauges.class);

    static final String NODE_METRICS_GROUP = "consumer-node-metrics";
    static final String REQUEST_LATENCY_AVG = "request-latency-avg";
    private static final String NODE_ID_TAG = "node-id";
    private static final String NODE_ID_PREFIX = "node-";

    private final Supplier<Map<MetricName, ? extends Metric>> clientMetrics;
    private final Admin admin;
    private final String securityProtocol;
    private final MillpondMetrics metrics;
    private final Set<Integer> registeredNodes = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService scheduler;

    /**
     * @param clientMetrics    the consumer's {@code metrics()}: it takes no lock, so another thread may read it
     * @param admin            names brokers ({@code host:port} of a node id)
     * @param securityProtocol the consumer's {@code security.protocol}, for the librdkafka-style broker name
     */
    public KafkaClientGauges(Supplier<Map<MetricName, ? extends Metric>> clientMetrics, Admin admin,
                             String securityProtocol, MillpondMetrics metrics) {
        this.clientMetrics = clientMetrics;
        this.admin = admin;
        this.securityProtocol = securityProtocol;
        this.metrics = metrics;
    }

    /** Looks for newly measured brokers every {@code intervalMs} on a daemon thread; no-op when ≤ 0. */
    public KafkaClientGauges start(long intervalMs) {
        if (intervalMs > 0) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "millpond-kafka-client-gauges");
                t.setDaemon(true);
                return t;
            });
            scheduler.scheduleWithFixedDelay(this::refreshQuietly, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /** Registers a gauge for every broker with a measured latency and no gauge yet. */
    public void refresh() {
        Map<Integer, Metric> latencies = new HashMap<>();
        clientMetrics.get().forEach((name, metric) -> {
            Integer node = nodeId(name);
            if (node != null && !registeredNodes.contains(node) && isMeasured(metric)) {
                latencies.put(node, metric);
            }
        });
        if (latencies.isEmpty()) {
            return;
        }
        Map<Integer, Node> nodes = clusterNodes();
        latencies.forEach((id, metric) -> {
            Node node = nodes.get(id);
            if (node != null && registeredNodes.add(id)) {
                metrics.rdkafkaBrokerRttAvgSeconds(
                        librdkafkaBrokerName(securityProtocol, node.host(), node.port(), id), new LastMeasuredSeconds(metric));
            }
        });
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.debugf("Kafka client gauges not refreshed: %s", e.toString());
        }
    }

    /** The broker id of a per-broker request latency metric; null for any other metric or a bootstrap node. */
    static Integer nodeId(MetricName name) {
        if (!NODE_METRICS_GROUP.equals(name.group()) || !REQUEST_LATENCY_AVG.equals(name.name())) {
            return null;
        }
        String tag = name.tags().get(NODE_ID_TAG);
        if (tag == null || !tag.startsWith(NODE_ID_PREFIX)) {
            return null;
        }
        try {
            int id = Integer.parseInt(tag.substring(NODE_ID_PREFIX.length()));
            return id >= 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean isMeasured(Metric metric) {
        return metric.metricValue() instanceof Number n && Double.isFinite(n.doubleValue());
    }

    private Map<Integer, Node> clusterNodes() {
        try {
            Collection<Node> nodes = admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
            Map<Integer, Node> byId = new HashMap<>();
            nodes.forEach(n -> byId.put(n.id(), n));
            return byId;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        } catch (Exception e) {
            LOG.debugf("Cannot name brokers for the rtt gauges yet: %s", e.toString());
            return Map.of();
        }
    }

    /** librdkafka's broker name: {@code host:port/id}, with {@code proto://} in front unless plaintext. */
    static String librdkafkaBrokerName(String securityProtocol, String host, int port, int nodeId) {
        String prefix = securityProtocol == null || securityProtocol.equalsIgnoreCase("PLAINTEXT")
                ? "" : securityProtocol.toLowerCase(Locale.ROOT) + "://";
        return prefix + host + ":" + port + "/" + nodeId;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    /** Milliseconds → seconds; keeps the last measured value while the client's sample window is empty (NaN). */
    static final class LastMeasuredSeconds implements DoubleSupplier {
        private final Metric millis;
        private volatile double last = Double.NaN;

        LastMeasuredSeconds(Metric millis) {
            this.millis = millis;
        }

        @Override
        public double getAsDouble() {
            if (millis.metricValue() instanceof Number n && Double.isFinite(n.doubleValue())) {
                last = n.doubleValue() / 1000.0;
            }
            return last;
        }
    }
}
