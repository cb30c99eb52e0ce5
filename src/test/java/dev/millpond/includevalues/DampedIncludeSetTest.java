package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import static dev.millpond.includevalues.PollVerdict.ACCEPTED;
import static dev.millpond.includevalues.PollVerdict.REFUSED_BULK_REMOVAL;
import static dev.millpond.includevalues.PollVerdict.REFUSED_EMPTY;
import static dev.millpond.includevalues.PollVerdict.REFUSED_TYPE_FLIP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The damping rules as a table: each scenario is a sequence of successful polls (a failed poll never reaches the
 * machine, so "a failure in the middle" is simply a poll that is not applied) with the verdict, the effective set,
 * the values added and removed, and the pending-removal count expected after each one.
 */
class DampedIncludeSetTest {

    /** One successful poll and what must hold after it. */
    record Step(ServedValues served, PollVerdict verdict, Set<Object> effective, Set<Object> added,
                Set<Object> removed, int pending) {
    }

    record Scenario(String name, FilterValues pins, int removalPolls, List<Step> steps) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                new Scenario("additions apply on the first poll that shows them", pins(1, 2), 3, List.of(
                        step(served(1, 2, 10), ACCEPTED, set(1, 2, 10), set(10), set(), 0),
                        step(served(10, 11, 12), ACCEPTED, set(1, 2, 10, 11, 12), set(11, 12), set(), 0))),
                new Scenario("a single removal needs REMOVAL_POLLS consecutive absent polls", pins(1), 3, List.of(
                        step(served(1, 10, 11, 12), ACCEPTED, set(1, 10, 11, 12), set(10, 11, 12), set(), 0),
                        step(served(1, 10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        step(served(1, 10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        step(served(1, 10, 11), ACCEPTED, set(1, 10, 11), set(), set(12), 0),
                        step(served(1, 10, 11), ACCEPTED, set(1, 10, 11), set(), set(), 0))),
                new Scenario("a failed poll in the middle freezes the countdown (it is never applied)", pins(1), 3,
                        List.of(
                        step(served(10, 11, 12), ACCEPTED, set(1, 10, 11, 12), set(10, 11, 12), set(), 0),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        // -- a failed poll here: nothing applied --
                        step(served(10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11), set(), set(12), 0))),
                new Scenario("reappearance resets the countdown", pins(1), 2, List.of(
                        step(served(10, 11, 12), ACCEPTED, set(1, 10, 11, 12), set(10, 11, 12), set(), 0),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        step(served(10, 11, 12), ACCEPTED, set(1, 10, 11, 12), set(), set(), 0),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11), set(), set(12), 0))),
                new Scenario("empty while endpoint-managed values are held is refused and advances nothing",
                        pins(1), 2, List.of(
                        step(served(10, 11, 12), ACCEPTED, set(1, 10, 11, 12), set(10, 11, 12), set(), 0),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11, 12), set(), set(), 1),
                        step(empty(), REFUSED_EMPTY, set(1, 10, 11, 12), set(), set(), 1),
                        step(empty(), REFUSED_EMPTY, set(1, 10, 11, 12), set(), set(), 1),
                        step(served(10, 11), ACCEPTED, set(1, 10, 11), set(), set(12), 0))),
                new Scenario("a pins-only set accepts an empty endpoint", pins(1, 2), 2, List.of(
                        step(empty(), ACCEPTED, set(1, 2), set(), set(), 0),
                        step(served(1, 2), ACCEPTED, set(1, 2), set(), set(), 0),
                        step(empty(), ACCEPTED, set(1, 2), set(), set(), 0))),
                new Scenario("removing more than half of the managed slice is refused; its additions still apply",
                        pins(1), 2, List.of(
                        step(served(1, 10, 11, 12, 13), ACCEPTED, set(1, 10, 11, 12, 13), set(10, 11, 12, 13),
                                set(), 0),
                        // absent 11,12,13 = 3 of slice {10,11,12,13} + visible pin 1 = 5: 6 > 5
                        step(served(1, 10, 20), REFUSED_BULK_REMOVAL, set(1, 10, 11, 12, 13, 20), set(20), set(), 0),
                        // absent 12,13 = 2 of 6 (5 managed + pin 1): accepted, countdowns start
                        step(served(1, 10, 11, 20), ACCEPTED, set(1, 10, 11, 12, 13, 20), set(), set(), 2))),
                new Scenario("exactly half is not bulk", pins(), 1, List.of(
                        step(served(10, 11), ACCEPTED, set(10, 11), set(10, 11), set(), 0),
                        step(served(10), ACCEPTED, set(10), set(), set(11), 0))),
                new Scenario("the bulk denominator excludes the pins the endpoint does not show", pins(1, 2, 3, 4, 5),
                        2, List.of(
                        step(served(10, 11, 12), ACCEPTED, set(1, 2, 3, 4, 5, 10, 11, 12), set(10, 11, 12), set(), 0),
                        // 2 of 3 absent: refused, although 2 of the whole set of 8 would not be half
                        step(served(10), REFUSED_BULK_REMOVAL, set(1, 2, 3, 4, 5, 10, 11, 12), set(), set(), 0))),
                new Scenario("the bulk denominator counts the pins the endpoint does show", pins(1, 2, 3), 1, List.of(
                        step(served(1, 2, 3, 10, 11), ACCEPTED, set(1, 2, 3, 10, 11), set(10, 11), set(), 0),
                        // 2 absent of 5 shown-or-held: accepted
                        step(served(1, 2, 3), ACCEPTED, set(1, 2, 3), set(), set(10, 11), 0))),
                new Scenario("an int set refuses strings", pins(1), 1, List.of(
                        step(served(10), ACCEPTED, set(1, 10), set(10), set(), 0),
                        step(strings("1", "10"), REFUSED_TYPE_FLIP, set(1, 10), set(), set(), 0),
                        step(served(1), ACCEPTED, set(1), set(), set(10), 0))),
                new Scenario("a string set refuses integers", stringPins("a"), 2, List.of(
                        step(strings("a", "b"), ACCEPTED, stringSet("a", "b"), stringSet("b"), set(), 0),
                        step(strings("a"), ACCEPTED, stringSet("a", "b"), set(), set(), 1),
                        step(served(1, 2), REFUSED_TYPE_FLIP, stringSet("a", "b"), set(), set(), 1))),
                new Scenario("pins are never removed, even after the endpoint served and dropped them", pins(1, 2), 1,
                        List.of(
                        step(served(1, 2, 10), ACCEPTED, set(1, 2, 10), set(10), set(), 0),
                        step(served(10), ACCEPTED, set(1, 2, 10), set(), set(), 0),
                        step(served(10, 11), ACCEPTED, set(1, 2, 10, 11), set(11), set(), 0),
                        step(served(10, 11), ACCEPTED, set(1, 2, 10, 11), set(), set(), 0))),
                new Scenario("REMOVAL_POLLS=1 removes on the first absent poll", pins(), 1, List.of(
                        step(served(10, 11, 12), ACCEPTED, set(10, 11, 12), set(10, 11, 12), set(), 0),
                        step(served(10, 11), ACCEPTED, set(10, 11), set(), set(12), 0),
                        step(served(10, 11, 12), ACCEPTED, set(10, 11, 12), set(12), set(), 0))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void eachPollLeavesTheExpectedState(Scenario scenario) {
        DampedIncludeSet damped = new DampedIncludeSet(scenario.pins(), scenario.removalPolls());
        int i = 0;
        for (Step step : scenario.steps()) {
            i++;
            PollOutcome outcome = damped.apply(step.served());
            String at = scenario.name() + ", poll " + i;
            assertThat(outcome.verdict()).as(at).isEqualTo(step.verdict());
            assertThat(damped.snapshot().members()).as(at).isEqualTo(step.effective());
            assertThat(outcome.added().members()).as(at + " added").isEqualTo(step.added());
            assertThat(outcome.removed().members()).as(at + " removed").isEqualTo(step.removed());
            assertThat(damped.pendingRemovals()).as(at + " pending").isEqualTo(step.pending());
        }
    }

    @Test
    void theSnapshotInstanceChangesOnlyWithMembership() {
        DampedIncludeSet damped = new DampedIncludeSet(pins(1), 2);
        FilterValues initial = damped.snapshot();
        damped.apply(served(1));
        assertThat(damped.snapshot()).isSameAs(initial);
        damped.apply(served(1, 10));
        FilterValues withTen = damped.snapshot();
        assertThat(withTen).isNotSameAs(initial);
        damped.apply(served(1));
        assertThat(damped.snapshot()).as("countdown only").isSameAs(withTen);
        damped.apply(empty());
        assertThat(damped.snapshot()).as("refused").isSameAs(withTen);
    }

    @Test
    void pinAndEndpointDivergenceFollowsTheLatestAcceptedPoll() {
        DampedIncludeSet damped = new DampedIncludeSet(pins(1, 2, 3), 2);
        assertThat(damped.pinsNotServed()).isEmpty();
        assertThat(damped.servedNotPinned()).isEmpty();
        damped.apply(served(1, 10, 11));
        assertThat(damped.pinned()).isEqualTo(3);
        assertThat(damped.pinsNotServed()).hasValue(2);
        assertThat(damped.servedNotPinned()).hasValue(2);
        damped.apply(strings("x"));
        assertThat(damped.pinsNotServed()).as("a refused poll is not the endpoint's view").hasValue(2);
        damped.apply(served(1, 2, 3, 10, 11, 12));
        assertThat(damped.pinsNotServed()).hasValue(0);
        assertThat(damped.servedNotPinned()).hasValue(3);
    }

    @Test
    void removalPollsBelowOneIsRefused() {
        assertThatThrownBy(() -> new DampedIncludeSet(pins(1), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- table helpers ----

    static Step step(ServedValues served, PollVerdict verdict, Set<Object> effective, Set<Object> added,
                     Set<Object> removed, int pending) {
        return new Step(served, verdict, effective, added, removed, pending);
    }

    static FilterValues pins(long... values) {
        return FilterValues.of(FilterValues.Type.INTEGER, set(values));
    }

    static FilterValues stringPins(String... values) {
        return FilterValues.of(FilterValues.Type.STRING, Set.of((Object[]) values));
    }

    static ServedValues served(long... values) {
        return ServedValues.of(FilterValues.Type.INTEGER, set(values).toArray());
    }

    static ServedValues strings(String... values) {
        return ServedValues.of(FilterValues.Type.STRING, (Object[]) values);
    }

    static ServedValues empty() {
        return ServedValues.empty();
    }

    static Set<Object> set(long... values) {
        return Arrays.stream(values).boxed().collect(Collectors.toUnmodifiableSet());
    }

    static Set<Object> stringSet(String... values) {
        return Set.of((Object[]) values);
    }
}
