package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Optional;

/**
 * The authoritative-mode safety rules as a pure state machine over successful polls (a failed poll never reaches
 * it, which is exactly "failures freeze countdowns and keep the set"). Shaped by the consequence asymmetry: an
 * erroneous addition writes surplus rows, an erroneous removal silently drops records with no recovery.
 *
 * <ul>
 *   <li>Additions apply on the first successful poll that shows them.</li>
 *   <li>A held value leaves only after {@code removalPolls} consecutive accepted polls without it; a poll that
 *       shows it again resets its countdown; refused polls advance no countdown.</li>
 *   <li>Pins (the static values) are never removed and never counted as endpoint-managed: the effective set is
 *       pins ∪ managed, and the two are disjoint.</li>
 *   <li>Refused: {@code empty} while managed values are held (a pins-only set accepts an empty array);
 *       {@code type_flip}; {@code bulk_removal} when more than half of the endpoint-managed slice — the current set
 *       minus the pins this poll does not show — is absent at once, in which case the additions still apply.</li>
 * </ul>
 *
 * <p>The state is the effective set itself (pins ∪ managed, the snapshot readers get) and the values counting down,
 * never a second copy of the managed values: a served list of millions of values is held once, plus the poll being
 * applied. Not thread-safe: one poller drives it; readers get {@link #snapshot()}, which is immutable.
 */
final class DampedIncludeSet {

    private final FilterValues.Type type;
    private final FilterValues pins;
    private final int removalPolls;
    /** pins ∪ managed: what the keep filter reads. */
    private FilterValues effective;
    /** Managed values absent from the latest accepted polls, and (in the same order) for how many in a row. */
    private FilterValues pending;
    private int[] pendingPolls = new int[0];
    /** The latest accepted poll against the pins, for the pin/shadow diff gauges; empty before one. */
    private Optional<Integer> pinsNotServed = Optional.empty();
    private Optional<Integer> servedNotPinned = Optional.empty();

    DampedIncludeSet(FilterValues pins, int removalPolls) {
        if (removalPolls < 1) {
            throw new IllegalArgumentException("removalPolls must be >= 1, got " + removalPolls);
        }
        this.type = pins.type();
        this.pins = pins;
        this.removalPolls = removalPolls;
        this.effective = pins;
        this.pending = FilterValues.empty(type);
    }

    PollOutcome apply(ServedValues served) {
        FilterValues none = FilterValues.empty(type);
        if (served.isEmpty()) {
            if (managedCount() > 0) {
                return PollOutcome.refused(PollVerdict.REFUSED_EMPTY, none);
            }
            pinsNotServed = Optional.of(pins.size());
            servedNotPinned = Optional.of(0);
            return new PollOutcome(PollVerdict.ACCEPTED, none, none);
        }
        if (served.type().orElseThrow() != type) {
            return PollOutcome.refused(PollVerdict.REFUSED_TYPE_FLIP, none);
        }
        FilterValues shown = served.values();
        FilterValues added = shown.minus(effective);
        // Held values the poll does not show, the pins among them aside: the managed values it would remove.
        BitSet shownHere = effective.presentIn(shown);
        shownHere.flip(0, effective.size());
        FilterValues absent = effective.select(shownHere).minus(pins);
        int visiblePins = pins.presentIn(shown).cardinality();

        if (2L * absent.size() > managedCount() + visiblePins) {
            effective = effective.union(added);
            return new PollOutcome(PollVerdict.REFUSED_BULK_REMOVAL, added, none);
        }

        // Each absent value's countdown goes on from where it stood (the values counting down before and still
        // absent keep their count, in the same sorted order); a value shown again leaves the countdown.
        BitSet stillAbsent = pending.presentIn(absent);
        BitSet wasPending = absent.presentIn(pending);
        int[] polls = new int[absent.size()];
        BitSet due = new BitSet(absent.size());
        int before = stillAbsent.nextSetBit(0);
        for (int i = 0; i < absent.size(); i++) {
            if (wasPending.get(i)) {
                polls[i] = pendingPolls[before] + 1;
                before = stillAbsent.nextSetBit(before + 1);
            } else {
                polls[i] = 1;
            }
            if (polls[i] >= removalPolls) {
                due.set(i);
            }
        }
        FilterValues removed = absent.select(due);
        due.flip(0, absent.size());
        pending = absent.select(due);
        pendingPolls = new int[pending.size()];
        int n = 0;
        for (int i = due.nextSetBit(0); i >= 0; i = due.nextSetBit(i + 1)) {
            pendingPolls[n++] = polls[i];
        }
        effective = effective.union(added).minus(removed);
        pinsNotServed = Optional.of(pins.size() - visiblePins);
        servedNotPinned = Optional.of(shown.size() - visiblePins);
        return new PollOutcome(PollVerdict.ACCEPTED, added, removed);
    }

    /** Endpoint-managed values held: the effective set minus the pins, which it always holds. */
    private int managedCount() {
        return effective.size() - pins.size();
    }

    /** pins ∪ managed; the same instance until membership changes. */
    FilterValues snapshot() {
        return effective;
    }

    int pendingRemovals() {
        return pending.size();
    }

    int pinned() {
        return pins.size();
    }

    /** Pins the latest accepted poll did not show; empty before the first accepted poll. */
    Optional<Integer> pinsNotServed() {
        return pinsNotServed;
    }

    /** Values the latest accepted poll showed that are not pins; empty before the first accepted poll. */
    Optional<Integer> servedNotPinned() {
        return servedNotPinned;
    }

    @Override
    public String toString() {
        return "DampedIncludeSet" + Arrays.asList(effective, pending);
    }
}
