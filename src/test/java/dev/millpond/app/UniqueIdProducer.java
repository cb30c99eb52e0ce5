package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.KafkaBroker;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A background producer of events with consecutive unique ids, in small acknowledged batches round-robin over the
 * partitions, so {@link #produced()} is exact once it is closed. Optionally about 5 % of the records are poison
 * (malformed JSON, or a top-level value that is not an object) that still carries its id in the raw bytes.
 */
final class UniqueIdProducer implements AutoCloseable {

    private static final int BATCH = 20;

    private final AtomicLong produced;
    private final AtomicLong poisoned = new AtomicLong();
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final Thread thread;

    /** Starts producing ids from {@code produced}'s current value on; {@code poison} null for none. */
    UniqueIdProducer(KafkaBroker kafka, String topic, int partitions, AtomicLong produced, Random poison) {
        this.produced = produced;
        this.thread = new Thread(() -> {
            int partition = 0;
            while (producing.get()) {
                long first = produced.get();
                List<byte[]> values = new ArrayList<>(SampleEvents.events(first, BATCH));
                for (int i = 0; poison != null && i < BATCH; i++) {
                    if (poison.nextInt(20) == 0) {
                        String bad = poison.nextBoolean() ? "{\"id\":" + (first + i) + ", broken" : "[" + (first + i) + "]";
                        values.set(i, bad.getBytes(StandardCharsets.UTF_8));
                        poisoned.incrementAndGet();
                    }
                }
                kafka.produce(topic, partition, values);
                produced.addAndGet(BATCH);
                partition = (partition + 1) % partitions;
                CommitWindow.sleep(20);
            }
        }, "unique-id-producer");
        thread.start();
    }

    long produced() {
        return produced.get();
    }

    long poisoned() {
        return poisoned.get();
    }

    @Override
    public void close() throws InterruptedException {
        producing.set(false);
        thread.join(30_000);
    }
}
