package dev.millpond.maintenance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One partition's offsets in the lake against its log. Each {@code _millpond_offsets} row is one flush's range,
 * [first_offset, next_offset); consecutive flushes must meet exactly. Rows written before {@code first_offset}
 * existed only say where their flush ended, so their range is taken to start where the previous one ended (a
 * missing row among them cannot be seen, and the report says how many there are).
 *
 * @param covered        the lake's offsets as disjoint ranges (one range when nothing is missing)
 * @param findings       gaps, overlaps and offsets retention deleted before the lake got them
 * @param legacyRows     rows without first_offset
 */
public record PartitionAudit(
        int partition,
        int flushes,
        Optional<Long> firstInLake,
        Optional<Long> nextInLake,
        long logStart,
        long logEnd,
        List<Range> covered,
        List<Finding> findings,
        int legacyRows) {

    /** [from, to) */
    public record Range(long from, long to) {
        public long size() {
            return to - from;
        }

        @Override
        public String toString() {
            return "[" + from + ", " + to + ")";
        }
    }

    /** One offsets row: the flush covered [first, next); {@code first} is empty for rows older than the column. */
    public record Flush(int partition, Optional<Long> first, long next) {
    }

    public enum Kind {
        /** Offsets between two flushes no flush recorded, and Kafka has (or may have had) records there. */
        GAP,
        /** Offsets two flushes both recorded: those records are in the lake twice. */
        OVERLAP,
        /**
         * Offsets the lake never received that retention deleted — after its last flush, or between two flushes where
         * the pipeline jumped over them: the lake can never get them.
         */
        RETENTION_LOSS
    }

    public record Finding(Kind kind, Range range, String note) {
        @Override
        public String toString() {
            return kind.name().toLowerCase().replace('_', ' ') + " " + range + " (" + range.size() + " offsets)"
                    + (note.isEmpty() ? "" : ": " + note);
        }
    }

    /** Whether Kafka holds any record in a range of offsets; empty when retention already deleted part of it. */
    public interface RecordProbe {
        Optional<Boolean> hasRecords(int partition, Range range);
    }

    /** Gaps and overlaps fail the audit; so does retention having deleted offsets the lake never received. */
    public boolean clean() {
        return findings.isEmpty();
    }

    public long lag() {
        return nextInLake.map(n -> Math.max(0, logEnd - n)).orElse(Math.max(0, logEnd - logStart));
    }

    public static PartitionAudit of(int partition, List<Flush> rows, long logStart, long logEnd, RecordProbe probe) {
        List<Flush> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingLong(Flush::next).thenComparing(f -> f.first().orElse(Long.MIN_VALUE)));
        List<Range> covered = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        int legacy = 0;
        Long previousNext = null;
        Optional<Long> firstInLake = Optional.empty();
        for (Flush f : sorted) {
            if (f.first().isEmpty()) {
                legacy++;
            }
            long from = f.first().orElse(previousNext != null ? previousNext : f.next());
            if (firstInLake.isEmpty() && f.first().isPresent()) {
                firstInLake = f.first();
            }
            if (previousNext != null) {
                long gapStart = previousNext;
                if (from > gapStart && gapStart < logStart) {
                    // Offsets the log start has passed: the pipeline jumped over them (it was stopped or lagging
                    // past retention), and no lake can get them now. The rest of the gap, if any, is checked below.
                    long lostTo = Math.min(from, logStart);
                    findings.add(new Finding(Kind.RETENTION_LOSS, new Range(gapStart, lostTo),
                            "retention deleted these offsets before the lake received them"));
                    gapStart = lostTo;
                }
                if (from > gapStart) {
                    Range gap = new Range(gapStart, from);
                    Optional<Boolean> records = probe.hasRecords(partition, gap);
                    if (records.isEmpty()) {
                        findings.add(new Finding(Kind.GAP, gap, "no flush recorded these offsets; retention has "
                                + "deleted some of them, so whether they held records cannot be checked"));
                    } else if (records.get()) {
                        findings.add(new Finding(Kind.GAP, gap, "no flush recorded these offsets and Kafka still "
                                + "holds records there"));
                    }
                    // else: no records in the range (transaction markers, compacted away): nothing is missing.
                } else if (from < previousNext) {
                    findings.add(new Finding(Kind.OVERLAP, new Range(from, previousNext), "recorded by two flushes"));
                }
            }
            if (f.next() > from) {
                add(covered, new Range(from, f.next()));
            }
            previousNext = previousNext == null ? f.next() : Math.max(previousNext, f.next());
        }
        Optional<Long> next = Optional.ofNullable(previousNext);
        if (next.isPresent() && logStart > next.get()) {
            findings.add(new Finding(Kind.RETENTION_LOSS, new Range(next.get(), logStart),
                    "retention deleted these offsets before the lake received them"));
        }
        if (firstInLake.isEmpty() && !covered.isEmpty()) {
            firstInLake = Optional.of(covered.get(0).from());
        }
        return new PartitionAudit(partition, sorted.size(), firstInLake, next, logStart, logEnd, List.copyOf(covered),
                List.copyOf(findings), legacy);
    }

    /** Appends a range, merging it into the last one when they touch or overlap. */
    private static void add(List<Range> covered, Range r) {
        if (!covered.isEmpty()) {
            Range last = covered.get(covered.size() - 1);
            if (r.from() <= last.to()) {
                covered.set(covered.size() - 1, new Range(last.from(), Math.max(last.to(), r.to())));
                return;
            }
        }
        covered.add(r);
    }

    /** The report lines for this partition. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        String lake = flushes == 0 ? "no flush recorded"
                : "lake " + covered.stream().map(Range::toString).reduce((a, b) -> a + " " + b).orElse("[]")
                + " in " + flushes + " flush(es)";
        lines.add("partition " + partition + ": " + lake + "; log [" + logStart + ", " + logEnd + "); lag " + lag()
                + (clean() ? "; ok" : "; " + findings.size() + " finding(s)"));
        if (legacyRows > 0) {
            lines.add("  " + legacyRows + " row(s) written before first_offset was recorded: a missing row among them"
                    + " would not show");
        }
        findings.forEach(f -> lines.add("  " + f));
        return lines;
    }
}
