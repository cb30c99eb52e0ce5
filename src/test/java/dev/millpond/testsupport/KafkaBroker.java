package dev.millpond.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;

/**
 * A real single-node Kafka (KRaft, combined broker and controller) running inside the test JVM.
 *
 * <p>All listeners bind 127.0.0.1 on ports chosen once at construction, so {@link #stop()} and
 * {@link #restart()} bring the same broker back on the same address with the same log directory,
 * which is what a client sees when a real broker restarts. {@code KafkaClusterTestKit} is avoided
 * because it binds the wildcard address.
 *
 * <p>The helper methods go through a real {@link Admin} client and producer, never through broker
 * internals, so they exercise the same protocol paths as millpond. They always use the PLAINTEXT
 * listener; {@link #builder()} adds SSL and SASL/PLAIN listeners for the client under test.
 *
 * <p>An instance either owns the server ({@link #start()}) or is attached to one started elsewhere
 * in the JVM ({@link #attach(Map)}, used by {@link Services} across class loaders). An attached
 * instance offers every client-side helper but cannot stop or restart the broker.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KafkaBroker.class.getName());
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final String BOOTSTRAP = "bootstrapServers";
    private static final String LOG_DIRECTORY = "logDirectory";

    /** Listener names of the optional client listeners; each uses the security protocol of the same name. */
    public static final String SSL_LISTENER = "SSL";
    public static final String SASL_PLAINTEXT_LISTENER = "SASL_PLAINTEXT";

    private final Path workDirectory;
    private final int brokerPort;
    /** Ports of the optional client listeners, by listener name; the helpers always use PLAINTEXT. */
    private final Map<String, Integer> extraListenerPorts;
    private final Path logDirectory;
    /** Null when attached: this instance did not start the broker and cannot restart it. */
    private final Properties config;
    private KafkaRaftServer server;
    private Admin admin;
    private KafkaProducer<byte[], byte[]> producer;

    /** Key and value of one record; either may be null (a null value is a tombstone). */
    public record KeyValue(byte[] key, byte[] value) {
    }

    private KafkaBroker(Path workDirectory, int brokerPort, Map<String, Integer> extraListenerPorts,
                        Path logDirectory, Properties config) {
        this.workDirectory = workDirectory;
        this.brokerPort = brokerPort;
        this.extraListenerPorts = Map.copyOf(extraListenerPorts);
        this.logDirectory = logDirectory;
        this.config = config;
    }

    /** Formats a fresh log directory and starts a PLAINTEXT-only broker; blocks until it accepts requests. */
    public static KafkaBroker start() {
        return builder().start();
    }

    /** A broker with optional SSL and SASL/PLAIN client listeners next to the PLAINTEXT one. */
    public static Builder builder() {
        return new Builder();
    }

    /** Chooses the extra client listeners; the PLAINTEXT listener (and the helpers using it) is always there. */
    public static final class Builder {
        private TestCertificateAuthority.BrokerKeystore sslKeystore;
        private Map<String, String> plainUsers;

        private Builder() {
        }

        /** Adds listener {@value #SSL_LISTENER} serving this keystore (server authentication only). */
        public Builder sslListener(TestCertificateAuthority.BrokerKeystore keystore) {
            this.sslKeystore = keystore;
            return this;
        }

        /** Adds listener {@value #SASL_PLAINTEXT_LISTENER} accepting SASL/PLAIN for these users and passwords. */
        public Builder saslPlainListener(Map<String, String> usersAndPasswords) {
            this.plainUsers = Map.copyOf(usersAndPasswords);
            return this;
        }

        public KafkaBroker start() {
            return KafkaBroker.start(this);
        }
    }

    private static KafkaBroker start(Builder options) {
        QuietLogging.apply();
        KafkaFatalErrors.throwInsteadOfExiting();
        Path workDirectory = TempDirectories.create("kafka");
        int brokerPort = LoopbackPorts.freePort();
        int controllerPort = LoopbackPorts.freePort();
        Map<String, Integer> extraPorts = new TreeMap<>();
        if (options.sslKeystore != null) {
            extraPorts.put(SSL_LISTENER, LoopbackPorts.freePort());
        }
        if (options.plainUsers != null) {
            extraPorts.put(SASL_PLAINTEXT_LISTENER, LoopbackPorts.freePort());
        }
        Path logDirectory = workDirectory.resolve("logs");
        Properties config = brokerConfig(logDirectory, brokerPort, controllerPort, extraPorts);
        if (options.sslKeystore != null) {
            config.putAll(sslListenerConfig(options.sslKeystore));
        }
        if (options.plainUsers != null) {
            config.putAll(saslPlainListenerConfig(options.plainUsers));
        }
        KafkaBroker broker = new KafkaBroker(workDirectory, brokerPort, extraPorts, logDirectory, config);
        try {
            broker.formatStorage();
            broker.startServer();
            return broker;
        } catch (Exception e) {
            // Exception, not RuntimeException: the Scala server can throw undeclared checked
            // exceptions (e.g. NoSuchMethodException from plugin loading), which must not leak the log dir.
            try {
                broker.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A client-side view of a broker started elsewhere in this JVM, from its {@link #coordinates()}. */
    public static KafkaBroker attach(Map<String, String> coordinates) {
        String bootstrap = coordinates.get(BOOTSTRAP);
        int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
        return new KafkaBroker(null, port, Map.of(), Path.of(coordinates.get(LOG_DIRECTORY)), null);
    }

    /** What {@link #attach(Map)} needs, as JDK types only so it can cross class loaders. */
    public Map<String, String> coordinates() {
        return Map.of(BOOTSTRAP, bootstrapServers(), LOG_DIRECTORY, logDirectory.toString());
    }

    private static Properties brokerConfig(Path logDirectory, int brokerPort, int controllerPort,
                                           Map<String, Integer> extraListenerPorts) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@" + LoopbackPorts.HOST + ":" + controllerPort);
        StringBuilder advertised = new StringBuilder("PLAINTEXT://" + LoopbackPorts.HOST + ":" + brokerPort);
        StringBuilder protocols = new StringBuilder("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        extraListenerPorts.forEach((name, port) -> {
            advertised.append(',').append(name).append("://").append(LoopbackPorts.HOST).append(':').append(port);
            protocols.append(',').append(name).append(':').append(name);
        });
        p.put("listeners", advertised + ",CONTROLLER://" + LoopbackPorts.HOST + ":" + controllerPort);
        p.put("advertised.listeners", advertised.toString());
        p.put("listener.security.protocol.map", protocols.toString());
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDirectory.toString());
        // One broker: every internal topic must be satisfiable with a single replica, otherwise
        // the group coordinator never comes up and offset commits hang.
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // Tests create their topics explicitly; a typo must fail instead of creating a new topic.
        p.put("auto.create.topics.enable", "false");
        // A test JVM on two cores: keep thread pools and the cleaner's 128 MB default buffer small.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(4 * 1024 * 1024));
        return p;
    }

    private static Properties sslListenerConfig(TestCertificateAuthority.BrokerKeystore keystore) {
        String prefix = "listener.name." + SSL_LISTENER.toLowerCase(Locale.ROOT) + ".";
        Properties p = new Properties();
        p.put(prefix + "ssl.keystore.type", "PKCS12");
        p.put(prefix + "ssl.keystore.location", keystore.location().toString());
        p.put(prefix + "ssl.keystore.password", keystore.password());
        p.put(prefix + "ssl.key.password", keystore.password());
        return p;
    }

    private static Properties saslPlainListenerConfig(Map<String, String> usersAndPasswords) {
        String prefix = "listener.name." + SASL_PLAINTEXT_LISTENER.toLowerCase(Locale.ROOT) + ".";
        StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
        new TreeMap<>(usersAndPasswords).forEach((user, password) ->
                jaas.append(" user_").append(user).append("=\"").append(jaasQuoted(password)).append('"'));
        Properties p = new Properties();
        p.put(prefix + "sasl.enabled.mechanisms", "PLAIN");
        p.put(prefix + "plain.sasl.jaas.config", jaas.append(';').toString());
        return p;
    }

    /** Inside a double-quoted JAAS option value, backslash and double quote are escaped with a backslash. */
    private static String jaasQuoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private void formatStorage() {
        Path configFile = workDirectory.resolve("server.properties");
        try (Writer writer = Files.newBufferedWriter(configFile, StandardCharsets.UTF_8)) {
            config.store(writer, "millpond test broker");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        String[] args = {"format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString()};
        int exitCode = StorageTool.execute(args, new PrintStream(output, true, StandardCharsets.UTF_8));
        if (exitCode != 0) {
            throw new IllegalStateException("kafka storage format failed (" + exitCode + "): "
                    + output.toString(StandardCharsets.UTF_8));
        }
    }

    private void startServer() {
        long started = System.nanoTime();
        server = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
        server.startup();
        KafkaFutures.await(admin().describeCluster().nodes());
        LOG.log(System.Logger.Level.INFO, "Kafka broker up at {0} in {1} ms",
                bootstrapServers(), (System.nanoTime() - started) / 1_000_000);
    }

    public String bootstrapServers() {
        return LoopbackPorts.HOST + ":" + brokerPort;
    }

    /** Address of the {@value #SSL_LISTENER} listener; the broker must have been built with one. */
    public String sslBootstrapServers() {
        return listenerAddress(SSL_LISTENER);
    }

    /** Address of the {@value #SASL_PLAINTEXT_LISTENER} listener; the broker must have been built with one. */
    public String saslPlaintextBootstrapServers() {
        return listenerAddress(SASL_PLAINTEXT_LISTENER);
    }

    private String listenerAddress(String listener) {
        Integer port = extraListenerPorts.get(listener);
        if (port == null) {
            throw new IllegalStateException("broker at " + bootstrapServers() + " has no " + listener
                    + " listener; build it with KafkaBroker.builder()");
        }
        return LoopbackPorts.HOST + ":" + port;
    }

    /** The broker's log directory; it survives {@link #stop()} and is deleted by {@link #close()}. */
    public Path logDirectory() {
        return logDirectory;
    }

    /** False after {@link #stop()}; an attached view always reports true. */
    public boolean isRunning() {
        return !owned() || server != null;
    }

    private boolean owned() {
        return config != null;
    }

    /** Client settings for a byte[] consumer in {@code groupId}, reading from the earliest offset, no auto-commit. */
    public Map<String, Object> consumerConfig(String groupId) {
        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return c;
    }

    /** A shared admin client for this broker; closed by {@link #stop()}. */
    public synchronized Admin admin() {
        requireRunning();
        if (admin == null) {
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
        }
        return admin;
    }

    /**
     * Creates a topic with replication factor 1 and returns once every partition's leader serves
     * requests, so a test's first produce or fetch does not race the topic's creation.
     */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** With topic-level configuration, e.g. {@code max.message.bytes} to take records past the broker's 1 MiB default. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
        KafkaFutures.await(admin().createTopics(List.of(topic)).all());
        awaitServing(name, partitions);
    }

    /**
     * Deletes a topic and creates it again under the same name, as an operator would. The broker completes a deletion
     * in the background and refuses the name until then, so the creation is retried.
     */
    public void recreateTopic(String name, int partitions) {
        KafkaFutures.await(admin().deleteTopics(List.of(name)).all());
        Await.within(Duration.ofSeconds(60), name + " created again").pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(RuntimeException.class).until(() -> {
                    createTopic(name, partitions);
                    return true;
                });
    }

    private void awaitServing(String name, int partitions) {
        Await.within(TIMEOUT, "a leader for every partition of " + name).pollInterval(Duration.ofMillis(20))
                .until(() -> allPartitionsHaveLeader(name, partitions));
        // The metadata cache names a leader slightly before that broker's log is ready; ListOffsets
        // is answered by the log itself (the admin client retries NOT_LEADER until it is, but not
        // UNKNOWN_TOPIC_OR_PARTITION, which a busy broker can still answer for a moment).
        Await.within(TIMEOUT, "the end offsets of " + name).pollInterval(Duration.ofMillis(20))
                .ignoreException(UnknownTopicOrPartitionException.class).until(() -> {
                    endOffsets(name);
                    return true;
                });
    }

    /** After a restart the logs are reloaded one by one; wait until every topic serves again. */
    private void awaitAllTopicsServing() {
        for (String topic : KafkaFutures.await(admin().listTopics().names())) {
            awaitServing(topic, describe(topic).partitions().size());
        }
    }

    private boolean allPartitionsHaveLeader(String topic, int partitions) {
        TopicDescription description;
        try {
            description = describe(topic);
        } catch (UnknownTopicOrPartitionException e) {
            return false; // created, but not yet in this broker's metadata cache
        }
        return description.partitions().size() == partitions
                && description.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    }

    private TopicDescription describe(String topic) {
        return KafkaFutures.await(admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
    }

    /**
     * Produces values without keys to one partition, acks=all; a null element is produced as a
     * null value (a tombstone). Returns the offset of each record, in order.
     */
    public List<Long> produce(String topic, int partition, List<byte[]> values) {
        List<KeyValue> records = new ArrayList<>(values.size());
        for (byte[] value : values) {
            records.add(new KeyValue(null, value));
        }
        return produceKeyed(topic, partition, records);
    }

    /** Produces {@code count} keyless tombstones (null values). */
    public List<Long> produceTombstones(String topic, int partition, int count) {
        return produce(topic, partition, Collections.nCopies(count, (byte[]) null));
    }

    /** Produces key/value records to one partition, acks=all; returns the offset of each, in order. */
    public List<Long> produceKeyed(String topic, int partition, List<KeyValue> records) {
        KafkaProducer<byte[], byte[]> p = producer();
        List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
        for (KeyValue record : records) {
            sent.add(p.send(new ProducerRecord<>(topic, partition, record.key(), record.value())));
        }
        p.flush();
        List<Long> offsets = new ArrayList<>(sent.size());
        for (Future<RecordMetadata> future : sent) {
            offsets.add(KafkaFutures.await(future).offset());
        }
        return offsets;
    }

    /**
     * Produces keyless values to one partition with the given Kafka timestamps (epoch ms, one per value; the topic's
     * default CreateTime keeps them), acks=all; returns the offset of each record, in order.
     */
    public List<Long> produceStamped(String topic, int partition, List<byte[]> values, List<Long> timestamps) {
        if (values.size() != timestamps.size()) {
            throw new IllegalArgumentException("one timestamp per value");
        }
        KafkaProducer<byte[], byte[]> p = producer();
        List<Future<RecordMetadata>> sent = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            sent.add(p.send(new ProducerRecord<>(topic, partition, timestamps.get(i), null, values.get(i))));
        }
        p.flush();
        List<Long> offsets = new ArrayList<>(sent.size());
        for (Future<RecordMetadata> future : sent) {
            offsets.add(KafkaFutures.await(future).offset());
        }
        return offsets;
    }

    /**
     * A new transactional producer ({@code transactional.id} given, transactions initialised), as Kafka Streams,
     * Flink or Debezium write; the caller begins, commits or aborts and closes it.
     */
    public KafkaProducer<byte[], byte[]> transactionalProducer(String transactionalId) {
        requireRunning();
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        c.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        c.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(c);
        p.initTransactions();
        return p;
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        requireRunning();
        if (producer == null) {
            Map<String, Object> c = new HashMap<>();
            c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
            c.put(ProducerConfig.ACKS_CONFIG, "all");
            c.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            // Room for the multi-megabyte records a topic created with a larger max.message.bytes takes.
            c.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 << 20);
            c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            producer = new KafkaProducer<>(c);
        }
        return producer;
    }

    /** Reads a partition from its log start offset to its current end offset, without a consumer group. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int partition) {
        TopicPartition tp = new TopicPartition(topic, partition);
        long end = endOffsets(topic).get(partition);
        Map<String, Object> c = consumerConfig("unused");
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            Await.within(TIMEOUT, tp + " read up to offset " + end).pollInterval(Duration.ofMillis(1)).until(() -> {
                if (consumer.position(tp) >= end) {
                    return true;
                }
                consumer.poll(Duration.ofMillis(200)).records(tp).forEach(records::add);
                return false;
            });
        }
        return records;
    }

    /** Committed offsets of {@code groupId} for {@code topic}, by partition; partitions without a commit are absent. */
    public Map<Integer, Long> committedOffsets(String groupId, String topic) {
        Map<TopicPartition, OffsetAndMetadata> all = whileOffsetsTopicLoads(() ->
                KafkaFutures.await(admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata()));
        Map<Integer, Long> offsets = new TreeMap<>();
        all.forEach((tp, offset) -> {
            if (tp.topic().equals(topic) && offset != null) {
                offsets.put(tp.partition(), offset.offset());
            }
        });
        return offsets;
    }

    /** Commits offsets for {@code groupId} as an administrator would; the group must have no active members. */
    public void commitOffsets(String groupId, String topic, Map<Integer, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((partition, offset) -> commit.put(new TopicPartition(topic, partition), new OffsetAndMetadata(offset)));
        whileOffsetsTopicLoads(() -> KafkaFutures.await(admin().alterConsumerGroupOffsets(groupId, commit).all()));
    }

    /**
     * The first group call creates {@code __consumer_offsets}; until its log is loaded the coordinator answers
     * UNKNOWN_TOPIC_OR_PARTITION, which the admin client does not retry (a consumer's commit does).
     */
    private <T> T whileOffsetsTopicLoads(java.util.function.Supplier<T> call) {
        AtomicReference<T> result = new AtomicReference<>(); // the call's answer may be null (a Void future)
        Await.within(TIMEOUT, "the offsets topic").pollInterval(Duration.ofMillis(50))
                .ignoreException(UnknownTopicOrPartitionException.class).until(() -> {
                    result.set(call.get());
                    return true;
                });
        return result.get();
    }

    /** Log start offset of every partition (the earliest offset still readable). */
    public Map<Integer, Long> startOffsets(String topic) {
        return listOffsets(topic, OffsetSpec.earliest());
    }

    /** End offset (high watermark) of every partition. */
    public Map<Integer, Long> endOffsets(String topic) {
        return listOffsets(topic, OffsetSpec.latest());
    }

    private Map<Integer, Long> listOffsets(String topic, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        describe(topic).partitions().forEach(p -> request.put(new TopicPartition(topic, p.partition()), spec));
        Map<TopicPartition, ListOffsetsResultInfo> result = KafkaFutures.await(admin().listOffsets(request).all());
        Map<Integer, Long> offsets = new TreeMap<>();
        result.forEach((tp, info) -> offsets.put(tp.partition(), info.offset()));
        return offsets;
    }

    /**
     * Advances the partition's log start offset to {@code offset}, as retention would. A group
     * whose committed offset is below it then holds a stale offset (out of range on fetch).
     */
    public void deleteRecordsBefore(String topic, int partition, long offset) {
        TopicPartition tp = new TopicPartition(topic, partition);
        KafkaFutures.await(admin().deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(offset))).all());
    }

    /** Shuts the broker down, keeping ports, cluster id and log directory for {@link #restart()}. */
    public synchronized void stop() {
        requireOwned();
        closeClients();
        if (server != null) {
            long started = System.nanoTime();
            server.shutdown();
            server.awaitShutdown();
            server = null;
            LOG.log(System.Logger.Level.INFO, "Kafka broker stopped in {0} ms", (System.nanoTime() - started) / 1_000_000);
        }
    }

    /** Starts the broker again on the same ports with the same log directory (stopping it first if running). */
    public synchronized void restart() {
        requireOwned();
        stop();
        startServer();
        awaitAllTopicsServing();
    }

    /** Stops the broker and deletes its log directory; an attached view only closes its clients. */
    @Override
    public synchronized void close() {
        if (!owned()) {
            closeClients();
            return;
        }
        try {
            stop();
        } finally {
            TempDirectories.deleteRecursively(workDirectory);
        }
    }

    private void closeClients() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }

    private void requireOwned() {
        if (!owned()) {
            throw new UnsupportedOperationException("broker at " + bootstrapServers()
                    + " is shared and owned elsewhere; start your own KafkaBroker to stop or restart one");
        }
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException("broker at " + bootstrapServers() + " is stopped");
        }
    }

    /**
     * Kafka reacts to fatal errors (e.g. a log directory vanishing) with {@code Exit.halt}, which
     * would kill the surefire fork and lose every test report. Turn those into exceptions.
     */
    private static final class KafkaFatalErrors {
        private static boolean installed;

        static synchronized void throwInsteadOfExiting() {
            if (!installed) {
                Exit.setExitProcedure((status, message) -> {
                    throw new IllegalStateException("Kafka requested exit(" + status + "): " + message);
                });
                Exit.setHaltProcedure((status, message) -> {
                    throw new IllegalStateException("Kafka requested halt(" + status + "): " + message);
                });
                installed = true;
            }
        }
    }
}
