// The database endpoints' rows (TechEmpower's World, the document of /docs; the fortunes and their
// page are jvm-common's DatabaseEndpoints) and the rules
// of the requests on them: how many rows /queries and /updates take, the random values they use.
// Jackson writes the records with their component names: {"id":1,"randomNumber":2}.

package benchlab.springboot;

import java.util.concurrent.ThreadLocalRandom;

final class Rows {
    static final int WORLD_ROWS = 10_000, MAX_QUERIES = 500;
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";

    record World(int id, int randomNumber) {}

    record Doc(int id, String title, String body, int count) {}

    /** A document of /docs to insert: random title, body and count. */
    record NewDoc(String title, String body, int count) {
        static NewDoc random() {
            return new NewDoc(letters(10), letters(100), randomNumber());
        }
    }

    private Rows() {}

    /** `n` of /queries and /updates: 1 to 500; missing or not a number counts as 1. */
    static int queries(String n) {
        if (n == null || !n.matches("-?\\d+")) return 1;
        // A whole number beyond int's range is still a number: clamped like the others.
        long value = n.length() > 12 ? (n.startsWith("-") ? 0 : MAX_QUERIES) : Long.parseLong(n);
        return (int) Math.max(1, Math.min(MAX_QUERIES, value));
    }

    /** A row of `world`, or a new random number: 1 to 10000. */
    static int randomNumber() {
        return ThreadLocalRandom.current().nextInt(WORLD_ROWS) + 1;
    }

    private static String letters(int count) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder builder = new StringBuilder(count);
        for (int i = 0; i < count; i++) builder.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        return builder.toString();
    }
}
