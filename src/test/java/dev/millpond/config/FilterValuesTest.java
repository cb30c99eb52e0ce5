package dev.millpond.config;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compact value sets against {@link java.util.HashSet} as the model: generated sets with many shared values, so
 * every operation meets overlaps, disjoint parts and empty sides.
 */
class FilterValuesTest {

    private static final int ROUNDS = 500;

    @Test
    void integerSetsBehaveAsSets() {
        Random random = new Random(3);
        for (int round = 0; round < ROUNDS; round++) {
            Set<Long> a = longs(random);
            Set<Long> b = longs(random);
            FilterValues.Ints fa = new FilterValues.Ints(new ArrayList<>(a));
            FilterValues.Ints fb = new FilterValues.Ints(new ArrayList<>(b));
            checkAlgebra(fa, fb, new HashSet<>(a), new HashSet<>(b));
            for (long probe = -40; probe <= 40; probe++) {
                assertThat(fa.contains(probe)).isEqualTo(a.contains(probe));
            }
            List<Long> ascending = fa.values();
            for (int i = 1; i < ascending.size(); i++) {
                assertThat(ascending.get(i - 1)).isLessThan(ascending.get(i));
            }
            assertThat(fa.heapBytes()).isEqualTo(16 + 8L * a.size());
        }
    }

    @Test
    void stringSetsBehaveAsSets() {
        Random random = new Random(5);
        for (int round = 0; round < ROUNDS; round++) {
            Set<String> a = strings(random);
            Set<String> b = strings(random);
            FilterValues.Strings fa = new FilterValues.Strings(new ArrayList<>(a));
            FilterValues.Strings fb = new FilterValues.Strings(new ArrayList<>(b));
            checkAlgebra(fa, fb, new HashSet<>(a), new HashSet<>(b));
            for (String s : b) {
                assertThat(fa.contains(s)).isEqualTo(a.contains(s));
                assertThat(fa.member(s)).isEqualTo(a.contains(s) ? s : null);
            }
        }
    }

    private static void checkAlgebra(FilterValues fa, FilterValues fb, Set<Object> a, Set<Object> b) {
        assertThat(fa.members()).isEqualTo(a);
        assertThat(fa.size()).isEqualTo(a.size());
        Set<Object> union = new HashSet<>(a);
        union.addAll(b);
        assertThat(fa.union(fb).members()).isEqualTo(union);
        Set<Object> minus = new HashSet<>(a);
        minus.removeAll(b);
        assertThat(fa.minus(fb).members()).isEqualTo(minus);
        if (minus.size() == a.size()) {
            assertThat(fa.minus(fb)).as("nothing removed: the same instance").isSameAs(fa);
        }
        if (union.size() == a.size()) {
            assertThat(fa.union(fb)).as("nothing added: the same instance").isSameAs(fa);
        }
        BitSet present = fa.presentIn(fb);
        List<Object> inOrder = new ArrayList<>(fa.members().size());
        for (int i = 0; i < fa.size(); i++) {
            Object v = fa instanceof FilterValues.Ints ints ? (Object) ints.get(i)
                    : ((FilterValues.Strings) fa).values().get(i);
            inOrder.add(v);
            assertThat(present.get(i)).as("%s in %s", v, b).isEqualTo(b.contains(v));
            assertThat(fb.containsValueOf(fa, i)).isEqualTo(b.contains(v));
        }
        BitSet every = new BitSet();
        every.set(0, fa.size(), true);
        every.clear(0);
        Set<Object> tail = new HashSet<>(inOrder.subList(Math.min(1, inOrder.size()), inOrder.size()));
        assertThat(fa.select(every).members()).isEqualTo(tail);
        assertThat(FilterValues.of(fa.type(), a)).isEqualTo(fa).hasSameHashCodeAs(fa);
    }

    @Test
    void anIntegerListMatchesOnlyTheDecimalTextOfAMember() {
        FilterValues.Ints ints = new FilterValues.Ints(List.of(0L, 42L, -7L, Long.MAX_VALUE, Long.MIN_VALUE));
        assertThat(ints.memberSpelled("42")).isEqualTo(42L);
        assertThat(ints.memberSpelled("0")).isZero();
        assertThat(ints.memberSpelled("-7")).isEqualTo(-7L);
        assertThat(ints.memberSpelled("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(ints.memberSpelled("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        for (String notSpelled : List.of("042", "+42", "-0", "00", "", "-", "42 ", " 42", "4.2", "1e1",
                "9223372036854775808", "-9223372036854775809", "99999999999999999999", "٤٢")) {
            assertThat(ints.memberSpelled(notSpelled)).as(notSpelled).isNull();
        }
        // Against the model: Long.toString is the one spelling of each value.
        Random random = new Random(9);
        for (int i = 0; i < 10_000; i++) {
            long v = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(200) - 100;
            FilterValues.Ints one = new FilterValues.Ints(List.of(v));
            assertThat(one.memberSpelled(Long.toString(v))).isEqualTo(v);
        }
    }

    @Test
    void stringsReadAsUuidsKeepTheCanonicalTextAndCountTheRest() {
        FilterValues.Strings values = new FilterValues.Strings(List.of("550e8400-e29b-41d4-a716-446655440000",
                "{550E8400-E29B-41D4-A716-446655440001}", "nope", "also-not"));
        FilterValues.Strings.Uuids uuids = values.uuids();
        assertThat(uuids.usable().values()).containsExactly("550e8400-e29b-41d4-a716-446655440000",
                "550e8400-e29b-41d4-a716-446655440001");
        assertThat(uuids.unparseable()).isEqualTo(2);
        assertThat(uuids.firstBad()).isEqualTo("also-not");
        assertThat(values.uuids()).as("derived once").isSameAs(uuids);
    }

    private static Set<Long> longs(Random random) {
        Set<Long> out = new HashSet<>();
        int n = random.nextInt(4) == 0 ? 0 : random.nextInt(30);
        for (int i = 0; i < n; i++) {
            out.add(random.nextInt(10) == 0 ? random.nextLong() : (long) (random.nextInt(61) - 30));
        }
        return out;
    }

    private static Set<String> strings(Random random) {
        Set<String> out = new HashSet<>();
        int n = random.nextInt(4) == 0 ? 0 : random.nextInt(30);
        String alphabet = "abAB9é😀 ";
        for (int i = 0; i < n; i++) {
            StringBuilder b = new StringBuilder();
            int length = random.nextInt(4);
            for (int j = 0; j < length; j++) {
                b.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0,
                        random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
            }
            out.add(b.toString());
        }
        return out;
    }
}
