package dev.millpond.bench;

import dev.millpond.testsupport.events.Corpus;

import java.nio.charset.StandardCharsets;

/**
 * Prints the sizes of a corpus's events, to tune a generator's shape: {@code CorpusSizes NAME [N]} (the names of
 * {@link Corpus#named}; N events from id 0, 10,000 by default): the average, the range and event 3 as a sample.
 */
public final class CorpusSizes {

    private CorpusSizes() {
    }

    public static void main(String[] args) {
        Corpus corpus = Corpus.named(args.length > 0 ? args[0] : "posthog");
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        long bytes = 0;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int i = 0; i < n; i++) {
            int length = corpus.event(i).length;
            bytes += length;
            min = Math.min(min, length);
            max = Math.max(max, length);
        }
        System.out.printf("%s: %,d events, %.0f bytes average, %,d-%,d%n%s%n", corpus.description(), n,
                (double) bytes / n, min, max, new String(corpus.event(3), StandardCharsets.UTF_8));
    }
}
