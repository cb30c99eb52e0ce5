package dev.millpond.stages;

import org.apache.arrow.vector.FieldVector;

/**
 * One coerced column: the new vector (owned by the caller) and how many non-null source values became null.
 * {@code nulled > 0} is what separates {@code errors_total{type="column_coercion"}} from
 * {@code columns_coerced_total}.
 */
record Coerced(FieldVector vector, int nulled) {
}
