package dev.millpond.testsupport.events;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Flat events of exactly N top-level keys, for how the cost grows with the table's width: {@code id} and
 * {@code timestamp}, then N−2 generated columns. Each column's kind, name and null rate come from its index alone
 * (seeded), so a column has the same type in every event and the first columns of a wider corpus are those of a
 * narrower one; its values come from the event's id, so the same id always gives the same bytes. The mix: short
 * categorical strings, ids and free text, ints, doubles, booleans, timestamps as ISO strings, and a few sparse
 * columns that are mostly null; half of the columns are never null, the rest null in 1–20 % of events.
 */
public final class WideEvents {

    /** A column's kind: its name's stem and how its values look. */
    enum Kind {
        CATEGORY("status"), REF("ref"), TEXT("note"), INT("count"), DOUBLE("amount"), BOOL("is"), TIME("seen_at"),
        SPARSE("extra");

        final String stem;

        Kind(String stem) {
            this.stem = stem;
        }
    }

    private static final String[] CATEGORIES = {"active", "pending", "closed", "trial", "paused", "archived", "new",
        "blocked", "eu-west-1", "us-east-2", "mobile", "desktop"};
    private static final String[] WORDS = {"order", "shipped", "late", "customer", "asked", "refund", "warehouse",
        "north", "retry", "payment", "card", "declined", "address", "updated", "priority", "ticket"};

    /** A column of the layout: derived from its index alone. */
    record Column(String name, Kind kind, int nullPercent) {
    }

    /** Layouts by width, so an event's columns are not derived again for every event. */
    private static final Map<Integer, Column[]> LAYOUTS = new ConcurrentHashMap<>();

    private WideEvents() {
    }

    /** The {@code columns} columns of a corpus that wide, in order. */
    static Column[] layout(int columns) {
        return LAYOUTS.computeIfAbsent(columns, n -> {
            Column[] layout = new Column[n];
            for (int c = 0; c < n; c++) {
                layout[c] = new Column(name(c), kind(c), nullPercent(c));
            }
            return layout;
        });
    }

    /** The kind of column {@code index} (0 and 1 are {@code id} and {@code timestamp}). */
    static Kind kind(int index) {
        if (index == 0) {
            return Kind.INT;
        }
        if (index == 1) {
            return Kind.TIME;
        }
        int k = new Random(index * 0x9E3779B97F4A7C15L + 5).nextInt(100);
        return k < 15 ? Kind.CATEGORY : k < 25 ? Kind.REF : k < 35 ? Kind.TEXT : k < 55 ? Kind.INT
                : k < 75 ? Kind.DOUBLE : k < 85 ? Kind.BOOL : k < 95 ? Kind.TIME : Kind.SPARSE;
    }

    /** The name of column {@code index}: {@code id}, {@code timestamp}, then e.g. {@code amount_0042}. */
    static String name(int index) {
        return index == 0 ? "id" : index == 1 ? "timestamp"
                : String.format(Locale.ROOT, "%s_%04d", kind(index).stem, index);
    }

    /** Percent of events in which column {@code index} is null. */
    static int nullPercent(int index) {
        if (index < 2) {
            return 0;
        }
        if (kind(index) == Kind.SPARSE) {
            return 80;
        }
        Random r = new Random(index * 0xC2B2AE3D27D4EB4FL + 11);
        return r.nextBoolean() ? 0 : 1 + r.nextInt(20);
    }

    /** The event with this id and {@code columns} top-level keys (at least 2). */
    public static byte[] event(long id, int columns) {
        if (columns < 2) {
            throw new IllegalArgumentException("a wide event has at least id and timestamp, not " + columns);
        }
        Column[] layout = layout(columns);
        Random r = new Random(id * 0xBF58476D1CE4E5B9L + columns);
        long micros = 1_764_417_600_000_000L + id * 1_000 + r.nextInt(1_000);
        StringBuilder b = new StringBuilder(columns * 32);
        b.append("{\"id\":").append(id);
        b.append(",\"timestamp\":\"").append(PostHogEvents.timestamp(micros)).append('"');
        for (int c = 2; c < columns; c++) {
            Column column = layout[c];
            b.append(",\"").append(column.name()).append("\":");
            if (r.nextInt(100) < column.nullPercent()) {
                b.append("null");
                continue;
            }
            switch (column.kind()) {
                case CATEGORY -> b.append('"').append(CATEGORIES[(c + r.nextInt(4)) % CATEGORIES.length]).append('"');
                case REF -> b.append('"').append(Long.toHexString(r.nextLong() | Long.MIN_VALUE)).append('"');
                case TEXT, SPARSE -> {
                    int words = 2 + r.nextInt(6);
                    b.append('"');
                    for (int w = 0; w < words; w++) {
                        b.append(w == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
                    }
                    b.append('"');
                }
                case INT -> b.append(r.nextInt(c % 3 == 0 ? 100 : 1_000_000));
                case DOUBLE -> b.append(String.format(Locale.ROOT, "%.3f", r.nextGaussian() * 1000));
                case BOOL -> b.append(r.nextInt(4) != 0);
                case TIME -> b.append('"').append(PostHogEvents.timestamp(micros - (long) r.nextInt(86_400) * 1_000_000))
                        .append('"');
                default -> throw new AssertionError(column.kind());
            }
        }
        b.append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
