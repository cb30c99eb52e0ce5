package dev.millpond.config;

/**
 * How wide a table may grow and where records that cannot land go.
 *
 * @param maxTableColumns      MILLPOND_MAX_TABLE_COLUMNS: the most columns the table may have, {@code _inserted_at}
 *                             included; a record that would need more is set aside, the table never grows past it
 * @param maxNewColumnsPerFlush MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH: the most columns one flush may add
 * @param rejects              MILLPOND_REJECTS: land records the pipeline cannot land (unparseable, not an object,
 *                             too wide) in {@code _millpond_rejects}, in the same lake commit as the flush's rows
 * @param rejectMaxValueBytes  MILLPOND_REJECTS_MAX_VALUE_BYTES: an operator's cap on how much of a rejected value is
 *                             kept (its full length is recorded beside it); {@link #UNCAPPED} when unset, so a reject
 *                             is kept whole, as large as Kafka delivered it
 */
public record LandingLimits(int maxTableColumns, int maxNewColumnsPerFlush, boolean rejects, int rejectMaxValueBytes) {

    /** Whether an operator capped the rejects' values. */
    public boolean rejectValuesCapped() {
        return rejectMaxValueBytes != UNCAPPED;
    }

    public static final int DEFAULT_MAX_TABLE_COLUMNS = 1000;
    public static final int DEFAULT_MAX_NEW_COLUMNS_PER_FLUSH = 100;
    /** No cap: a rejected value is kept whole. A Kafka record is at most 2 GiB, so an int bound is no bound. */
    public static final int UNCAPPED = Integer.MAX_VALUE;

    public static final LandingLimits DEFAULTS = new LandingLimits(DEFAULT_MAX_TABLE_COLUMNS,
            DEFAULT_MAX_NEW_COLUMNS_PER_FLUSH, true, UNCAPPED);

    /**
     * Reads and validates the four variables; each must be a positive integer (the flag true or false). The rejects'
     * value cap is off unless set: a reject is the one copy of a record whose offset moves on, so it is kept whole.
     */
    static LandingLimits parse(Env env) {
        int maxTable = positive(env, "MILLPOND_MAX_TABLE_COLUMNS", DEFAULT_MAX_TABLE_COLUMNS);
        int maxPerFlush = positive(env, "MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH", DEFAULT_MAX_NEW_COLUMNS_PER_FLUSH);
        boolean rejects = env.booleanFlag("MILLPOND_REJECTS", true);
        int maxValueBytes = positive(env, "MILLPOND_REJECTS_MAX_VALUE_BYTES", UNCAPPED);
        return new LandingLimits(maxTable, maxPerFlush, rejects, maxValueBytes);
    }

    private static int positive(Env env, String name, int fallback) {
        int value = env.intKnob(name, fallback);
        if (value <= 0) {
            throw new ConfigException(name + " must be a positive integer, got " + value);
        }
        return value;
    }
}
