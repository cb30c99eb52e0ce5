package dev.millpond.testsupport.hoglake;

/** Deep copies of a table's schema state, so an alter applies all of its ops or none. */
final class TableCopy {
    private TableCopy() {
    }

    static Table of(Table live) {
        Table t = new Table(live.namespace, live.name);
        live.columns.forEach(c -> t.columns.add(copy(c)));
        t.nextFieldId = live.nextFieldId;
        t.partitionSpec = live.partitionSpec == null ? null : live.partitionSpec.deepCopy();
        t.maxSpecId = live.maxSpecId;
        t.sortSpec = live.sortSpec == null ? null : live.sortSpec.deepCopy();
        t.maxSortId = live.maxSortId;
        return t;
    }

    static void apply(Table work, Table live) {
        live.columns.clear();
        live.columns.addAll(work.columns);
        live.nextFieldId = work.nextFieldId;
        live.partitionSpec = work.partitionSpec;
        live.maxSpecId = work.maxSpecId;
        live.sortSpec = work.sortSpec;
        live.maxSortId = work.maxSortId;
    }

    private static Column copy(Column c) {
        Column n = new Column();
        n.name = c.name;
        n.type = c.type;
        n.typeParams = c.typeParams;
        n.nullable = c.nullable;
        n.fieldId = c.fieldId;
        n.ordinal = c.ordinal;
        c.children.forEach(ch -> n.children.add(copy(ch)));
        return n;
    }
}
