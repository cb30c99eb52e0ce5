/**
 * The rules every layer may use without reaching into a neighbour: the identifier rule for tables, schemas and
 * columns ({@link dev.millpond.vocabulary.Identifiers}); when two column names are one column, ignoring case, and which
 * spelling wins ({@link dev.millpond.vocabulary.ColumnNames}); the uuid wire forms a value is accepted in
 * ({@link dev.millpond.vocabulary.UuidText}) and the Arrow uuid extension type that carries one
 * ({@link dev.millpond.vocabulary.UuidType}, {@link dev.millpond.vocabulary.UuidVector}); the one text of a double
 * ({@link dev.millpond.vocabulary.DoubleText}), so a number reads the same in nested JSON, a VARCHAR column, a pinned
 * cast and a hoglake partition value. Nothing here depends on another millpond package.
 */
package dev.millpond.vocabulary;
