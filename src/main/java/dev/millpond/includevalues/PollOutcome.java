package dev.millpond.includevalues;

import java.util.Set;

/**
 * One poll's effect on the damped set.
 *
 * @param verdict accepted, or why it was refused
 * @param added   values that entered the set (possible on an accepted or a bulk_removal-refused poll)
 * @param removed values whose removal countdown completed on this poll
 */
record PollOutcome(PollVerdict verdict, Set<Object> added, Set<Object> removed) {

    PollOutcome {
        added = Set.copyOf(added);
        removed = Set.copyOf(removed);
    }

    static PollOutcome refused(PollVerdict verdict) {
        return new PollOutcome(verdict, Set.of(), Set.of());
    }

    boolean changedMembership() {
        return !added.isEmpty() || !removed.isEmpty();
    }
}
