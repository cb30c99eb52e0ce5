package dev.millpond.includevalues;

import java.util.Optional;

/** What the damping rules made of one successful poll. Refusals carry the {@code refused_total{reason}} label. */
enum PollVerdict {
    ACCEPTED(null),
    /** An empty array while endpoint-managed values are held: never taken as evidence of removal. */
    REFUSED_EMPTY("empty"),
    /** More than half of the endpoint-managed slice absent at once; the poll's additions still apply. */
    REFUSED_BULK_REMOVAL("bulk_removal"),
    /** Integers where the set holds strings or the reverse: the filter's cast would drop whole batches. */
    REFUSED_TYPE_FLIP("type_flip");

    private final String reason;

    PollVerdict(String reason) {
        this.reason = reason;
    }

    /** The {@code reason} label; empty for an accepted poll. */
    Optional<String> refusalReason() {
        return Optional.ofNullable(reason);
    }
}
