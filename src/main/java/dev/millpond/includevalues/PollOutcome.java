package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

/**
 * One poll's effect on the damped set.
 *
 * @param verdict accepted, or why it was refused
 * @param added   values that entered the set (possible on an accepted or a bulk_removal-refused poll)
 * @param removed values whose removal countdown completed on this poll
 */
record PollOutcome(PollVerdict verdict, FilterValues added, FilterValues removed) {

    static PollOutcome refused(PollVerdict verdict, FilterValues none) {
        return new PollOutcome(verdict, none, none);
    }

    boolean changedMembership() {
        return !added.isEmpty() || !removed.isEmpty();
    }
}
