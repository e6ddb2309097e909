// The pure parts of Benchlab's endpoint contract (server-templates/CONTRACT.md) for the Undertow
// template: query parameters with their defaults and limits, fib and concat. Kept apart from the
// handlers so that both variants compute exactly the same answers.

package benchlab.undertow;

import java.util.concurrent.ThreadLocalRandom;

final class Endpoints {
    static final int FIB_DEFAULT = 30, FIB_MAX = 45;
    static final int CONCAT_DEFAULT = 10_000, CONCAT_MAX = 1_000_000;
    static final int SLEEP_DEFAULT = 500, SLEEP_MAX = 60_000;
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";

    private Endpoints() {}

    /** A whole-number query parameter within [0, max]; its default when absent; -1 when invalid. */
    static int intParam(String text, int fallback, int max) {
        if (text == null) return fallback;
        if (!text.matches("\\d{1,10}")) return -1;
        long value = Long.parseLong(text);
        return value <= max ? (int) value : -1;
    }

    static String badParam(String name, int max) {
        return name + " must be a whole number from 0 to " + max + "\n";
    }

    /** Recursive on purpose: the contract's /fib is a CPU-bound load, not an algorithm. */
    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** n random letters appended one at a time (a builder: String += would be quadratic in n). */
    static String concat(int n) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder builder = new StringBuilder(n);
        for (int i = 0; i < n; i++) builder.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        return builder.toString();
    }
}
