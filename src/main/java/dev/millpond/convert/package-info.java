/**
 * JSON → Arrow for one poll batch, and the per-flush unification of those batches (docs/decisions.md, "Type
 * inference is order-independent").
 *
 * <h2>Flow and ownership</h2>
 * <ol>
 *   <li>{@link dev.millpond.convert.JsonToArrow#convert(java.util.List)} turns the values of one poll into a
 *       {@link dev.millpond.convert.ConvertedBatch}. The caller owns its root ({@code null} when nothing
 *       parsed); {@code json_parse += failed}; {@code pending_bytes += nbytes} (pyarrow {@code Table.nbytes},
 *       see {@link dev.millpond.convert.ArrowSizes}).</li>
 *   <li>At flush, {@link dev.millpond.convert.BatchUnifier#unify(java.util.List)} takes ownership of all
 *       pending roots (also when it throws) and returns {@link dev.millpond.convert.UnifiedBatches}, which owns
 *       the same-schema output roots until it is closed.</li>
 * </ol>
 * All buffers come from the allocator given to each class. None of the classes is thread-safe.
 */
package dev.millpond.convert;
