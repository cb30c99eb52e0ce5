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
 *       the same-schema output roots.</li>
 *   <li>{@link dev.millpond.convert.UnifiedBatches#toReader(org.apache.arrow.memory.BufferAllocator)} moves
 *       them into an {@link org.apache.arrow.vector.ipc.ArrowReader} for {@code Data.exportArrayStream}; the
 *       reader then owns them and frees whatever is left when it is closed (an exported C stream closes it
 *       on release). Closing the {@code UnifiedBatches} afterwards is a harmless no-op.</li>
 * </ol>
 * All buffers come from the allocator given to each class. None of the classes is thread-safe.
 */
package dev.millpond.convert;
