package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The damped set on compact sorted sets against the rules written plainly over {@link HashSet}s ({@link Model}, the
 * earlier implementation): generated pins and sequences of polls over a small value range, so additions, absences,
 * reappearances, bulk removals, empty and type-flipped polls all occur; after every poll both agree on the verdict,
 * the effective set, the values added and removed, the pending removals and the pin gauges.
 */
class DampedIncludeSetModelTest {

    @Test
    void agreesWithThePlainRulesOnGeneratedPolls() {
        Random random = new Random(17);
        for (int round = 0; round < 400; round++) {
            Set<Object> pins = values(random, 5);
            int removalPolls = 1 + random.nextInt(4);
            FilterValues pinSet = FilterValues.of(FilterValues.Type.INTEGER, pins);
            DampedIncludeSet damped = new DampedIncludeSet(pinSet, removalPolls);
            Model model = new Model(pins, removalPolls);
            for (int poll = 0; poll < 25; poll++) {
                ServedValues served = poll(random);
                PollOutcome outcome = damped.apply(served);
                Model.Outcome expected = model.apply(served);
                String at = "round " + round + " poll " + poll + " pins " + pins + " removalPolls " + removalPolls;
                assertThat(outcome.verdict()).as(at).isEqualTo(expected.verdict());
                assertThat(outcome.added().members()).as(at + " added").isEqualTo(expected.added());
                assertThat(outcome.removed().members()).as(at + " removed").isEqualTo(expected.removed());
                assertThat(damped.snapshot().members()).as(at + " effective").isEqualTo(model.effective());
                assertThat(damped.pendingRemovals()).as(at + " pending").isEqualTo(model.absentPolls.size());
                assertThat(damped.pinsNotServed()).as(at).isEqualTo(model.pinsNotServed());
                assertThat(damped.servedNotPinned()).as(at).isEqualTo(model.servedNotPinned());
            }
        }
    }

    private static ServedValues poll(Random random) {
        int kind = random.nextInt(20);
        if (kind == 0) {
            return ServedValues.empty();
        }
        if (kind == 1) {
            return ServedValues.of(FilterValues.Type.STRING, "1");
        }
        Set<Object> v = values(random, 1 + random.nextInt(12));
        return v.isEmpty() ? ServedValues.empty() : ServedValues.of(FilterValues.Type.INTEGER, v.toArray());
    }

    private static Set<Object> values(Random random, int max) {
        Set<Object> out = new HashSet<>();
        int n = random.nextInt(max + 1);
        for (int i = 0; i < n; i++) {
            out.add((long) random.nextInt(16));
        }
        return out;
    }

    /** The rules over plain sets, as the damped set was first written. */
    static final class Model {
        record Outcome(PollVerdict verdict, Set<Object> added, Set<Object> removed) {
        }

        private final Set<Object> pins;
        private final int removalPolls;
        private final Set<Object> managed = new HashSet<>();
        final Map<Object, Integer> absentPolls = new HashMap<>();
        private Set<Object> lastAccepted;

        Model(Set<Object> pins, int removalPolls) {
            this.pins = Set.copyOf(pins);
            this.removalPolls = removalPolls;
        }

        Outcome apply(ServedValues served) {
            if (served.isEmpty()) {
                if (!managed.isEmpty()) {
                    return new Outcome(PollVerdict.REFUSED_EMPTY, Set.of(), Set.of());
                }
                lastAccepted = Set.of();
                return new Outcome(PollVerdict.ACCEPTED, Set.of(), Set.of());
            }
            if (served.type().orElseThrow() != FilterValues.Type.INTEGER) {
                return new Outcome(PollVerdict.REFUSED_TYPE_FLIP, Set.of(), Set.of());
            }
            Set<Object> shown = served.values().members();
            Set<Object> added = new HashSet<>(shown);
            added.removeAll(pins);
            added.removeAll(managed);
            Set<Object> absent = new HashSet<>(managed);
            absent.removeAll(shown);
            int visiblePins = (int) pins.stream().filter(shown::contains).count();
            if (2L * absent.size() > managed.size() + visiblePins) {
                managed.addAll(added);
                return new Outcome(PollVerdict.REFUSED_BULK_REMOVAL, added, Set.of());
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
            return new Outcome(PollVerdict.ACCEPTED, added, removed);
        }

        Set<Object> effective() {
            Set<Object> all = new HashSet<>(pins);
            all.addAll(managed);
            return all;
        }

        Optional<Integer> pinsNotServed() {
            return Optional.ofNullable(lastAccepted).map(s -> (int) pins.stream().filter(p -> !s.contains(p)).count());
        }

        Optional<Integer> servedNotPinned() {
            return Optional.ofNullable(lastAccepted).map(s -> (int) s.stream().filter(v -> !pins.contains(v)).count());
        }
    }

}
