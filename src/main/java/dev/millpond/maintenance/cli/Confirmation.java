package dev.millpond.maintenance.cli;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Optional;

/**
 * The question a destructive command asks before it changes anything: only on a terminal (stdin and stdout both
 * one), where an operator types the command; a CronJob or a pipe has no terminal and is never asked, so a scheduled
 * run proceeds as it always did. {@code --yes} skips the question on a terminal too.
 */
final class Confirmation {

    static final String PROMPT = "Proceed? [y/N] ";

    private Confirmation() {
    }

    /** The operator's terminal, if the command runs on one. */
    static Optional<Console> terminal() {
        Console console = System.console();
        if (console == null) {
            return Optional.empty();
        }
        try {
            // From JDK 22 a Console exists without a terminal too; isTerminal() tells them apart.
            Method isTerminal = Console.class.getMethod("isTerminal");
            return Boolean.TRUE.equals(isTerminal.invoke(console)) ? Optional.of(console) : Optional.empty();
        } catch (NoSuchMethodException e) {
            return Optional.of(console); // before JDK 22 a Console is only returned for a terminal
        } catch (ReflectiveOperationException e) {
            return Optional.empty();
        }
    }

    /** Asks; only {@code y} or {@code yes} (any case) proceeds — an empty answer or end of input does not. */
    static boolean ask(Console console) {
        String answer = console.readLine(PROMPT);
        return accepts(answer);
    }

    static boolean accepts(String answer) {
        if (answer == null) {
            return false;
        }
        String a = answer.strip().toLowerCase(Locale.ROOT);
        return a.equals("y") || a.equals("yes");
    }
}
