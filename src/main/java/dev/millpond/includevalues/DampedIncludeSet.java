package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 * Not thread-safe: one poller drives it; readers get {@link #snapshot()}, which is immutable.
 */
final class DampedIncludeSet {

    private final FilterValues.Type type;
    private final Set<Object> pins;
    private final int removalPolls;
    private final Set<Object> managed = new HashSet<>();
    /** Managed values absent from the latest accepted polls → how many consecutive ones. */
    private final Map<Object, Integer> absentPolls = new HashMap<>();
    /** The latest accepted poll's values: the endpoint's view for the pin/shadow diff gauges. */
    private Set<Object> lastAccepted;
    private FilterValues snapshot;

    DampedIncludeSet(FilterValues pins, int removalPolls) {
        if (removalPolls < 1) {
            throw new IllegalArgumentException("removalPolls must be >= 1, got " + removalPolls);
        }
        this.type = pins.type();
        this.pins = pins.members();
        this.removalPolls = removalPolls;
        this.snapshot = pins;
    }

    PollOutcome apply(ServedValues served) {
        if (served.isEmpty()) {
            if (!managed.isEmpty()) {
                return PollOutcome.refused(PollVerdict.REFUSED_EMPTY);
            }
            lastAccepted = Set.of();
            return new PollOutcome(PollVerdict.ACCEPTED, Set.of(), Set.of());
        }
        if (served.type().orElseThrow() != type) {
            return PollOutcome.refused(PollVerdict.REFUSED_TYPE_FLIP);
        }
        Set<Object> shown = served.values();
        Set<Object> added = new HashSet<>(shown);
        added.removeAll(pins);
        added.removeAll(managed);
        Set<Object> absent = new HashSet<>(managed);
        absent.removeAll(shown);

        if (2L * absent.size() > endpointManagedSlice(shown)) {
            managed.addAll(added);
            publishIf(!added.isEmpty());
            return new PollOutcome(PollVerdict.REFUSED_BULK_REMOVAL, added, Set.of());
        }

        managed.addAll(added);
        Set<Object> removed = new HashSet<>();
        for (Object held : managed) {
            if (shown.contains(held)) {
                absentPolls.remove(held);
            } else if (absentPolls.merge(held, 1, Integer::sum) >= removalPolls) {
                removed.add(held);
            }
        }
        managed.removeAll(removed);
        absentPolls.keySet().removeAll(removed);
        lastAccepted = shown;
        publishIf(!added.isEmpty() || !removed.isEmpty());
        return new PollOutcome(PollVerdict.ACCEPTED, added, removed);
    }

    /** The current set minus the pins this poll does not show: managed values plus the pins it does show. */
    private int endpointManagedSlice(Set<Object> shown) {
        int visiblePins = 0;
        for (Object pin : pins) {
            if (shown.contains(pin)) {
                visiblePins++;
            }
        }
        return managed.size() + visiblePins;
    }

    private void publishIf(boolean changed) {
        if (changed) {
            Set<Object> all = new HashSet<>(pins);
            all.addAll(managed);
            snapshot = FilterValues.of(type, all);
        }
    }

    /** pins ∪ managed; the same instance until membership changes. */
    FilterValues snapshot() {
        return snapshot;
    }

    int pendingRemovals() {
        return absentPolls.size();
    }

    int pinned() {
        return pins.size();
    }

    /** Pins the latest accepted poll did not show; empty before the first accepted poll. */
    Optional<Integer> pinsNotServed() {
        return Optional.ofNullable(lastAccepted).map(shown -> count(pins, v -> !shown.contains(v)));
    }

    /** Values the latest accepted poll showed that are not pins; empty before the first accepted poll. */
    Optional<Integer> servedNotPinned() {
        return Optional.ofNullable(lastAccepted).map(shown -> count(shown, v -> !pins.contains(v)));
    }

    private static int count(Set<Object> values, java.util.function.Predicate<Object> p) {
        int n = 0;
        for (Object v : values) {
            if (p.test(v)) {
                n++;
            }
        }
        return n;
    }
}
