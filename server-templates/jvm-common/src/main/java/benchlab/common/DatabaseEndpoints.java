// The database endpoints of the contract (server-templates/CONTRACT.md: TechEmpower's /db, /queries,
// /updates and /fortunes, and the siege seed's /docs) for the JVM templates, once and free of any
// database client: which request asks for which query, the count clamped to 1..500, the random ids,
// numbers and documents, the rows as JSON and the fortunes as HTML, and the answers without a
// database. Each template runs the SQL its own way (JDBC, or Vert.x's reactive client) and sends the
// Reply built here, so every JVM template answers byte for byte alike.

package benchlab.common;

import benchlab.common.Endpoints.Reply;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

public final class DatabaseEndpoints {
    /** Rows of `world` (ids 1..10000) and the largest random number written. */
    public static final int WORLD_ROWS = 10_000;
    private static final int MAX_QUERIES = 500;
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";
    private static final int TITLE_LENGTH = 10, BODY_LENGTH = 100;

    /**
     * The SQL every template runs, with PostgreSQL's numbered parameters (JDBC templates turn them
     * into its "?" in the same order); lower-case columns exactly as the seeded schema has them.
     */
    public static final String SELECT_WORLD = "SELECT id, randomnumber FROM world WHERE id = $1";
    public static final String UPDATE_WORLD = "UPDATE world SET randomnumber = $1 WHERE id = $2";
    public static final String SELECT_FORTUNES = "SELECT id, message FROM fortune";
    public static final String INSERT_DOC = "INSERT INTO docs (title, body, count) VALUES ($1, $2, $3)";
    /** 100 stored documents as the database gives them, unsorted: the siege seed's select. */
    public static final String SELECT_STORED_DOCS = "SELECT id, title, body, count FROM docs LIMIT 100";

    /** Which endpoint: one row, n rows, n rows updated, the fortunes page, a document stored. */
    public enum Kind { DB, QUERIES, UPDATES, FORTUNES, DOCS }

    /** What a database request asks for: its kind and how many rows (1 but for queries and updates). */
    public record Query(Kind kind, int count) {}

    public record World(int id, int randomNumber) {}

    public record Fortune(int id, String message) {}

    public record Doc(int id, String title, String body, int count) {}

    /** A document /docs inserts: 10 and 100 random letters, a count of 1..10000. */
    public record NewDoc(String title, String body, int count) {}

    /** Every database endpoint of a template deployed with the knob database off. */
    public static final Reply NO_DATABASE = new Reply(503, "text/plain", ascii("no database: deploy with the knob database on\n"), null);
    private static final Reply METHOD_NOT_ALLOWED = new Reply(405, "text/plain", ascii("method not allowed\n"), "GET, HEAD");
    private static final Reply DOCS_METHOD_NOT_ALLOWED = new Reply(405, "text/plain", ascii("method not allowed\n"), "GET, HEAD, POST");
    private static final String ADDED_FORTUNE = "Additional fortune added at request time.";
    private static final String JSON = "application/json";

    private DatabaseEndpoints() {}

    /** The query a request's path asks for; null when the path is not a database endpoint. */
    public static Query query(String path, Function<String, String> parameter) {
        return switch (path) {
            case "/db" -> new Query(Kind.DB, 1);
            case "/queries" -> new Query(Kind.QUERIES, count(parameter.apply("n")));
            case "/updates" -> new Query(Kind.UPDATES, count(parameter.apply("n")));
            case "/fortunes" -> new Query(Kind.FORTUNES, 1);
            case "/docs" -> new Query(Kind.DOCS, 1);
            default -> null;
        };
    }

    /**
     * What to answer instead of running the query, or null to run it: 405 for a method the endpoint
     * does not take (GET and HEAD; /docs also POST), 503 when the server has no database.
     */
    public static Reply refusal(String method, Query query, boolean hasDatabase) {
        boolean read = method.equals("GET") || method.equals("HEAD");
        if (query.kind() == Kind.DOCS && !read && !method.equals("POST")) return DOCS_METHOD_NOT_ALLOWED;
        if (query.kind() != Kind.DOCS && !read) return METHOD_NOT_ALLOWED;
        return hasDatabase ? null : NO_DATABASE;
    }

    /** TechEmpower's rule for n: a whole number clamped to 1..500; missing or not a number is 1. */
    static int count(String text) {
        if (text == null || !text.matches("-?\\d+")) return 1;
        BigInteger n = new BigInteger(text);
        return n.signum() <= 0 ? 1 : n.min(BigInteger.valueOf(MAX_QUERIES)).intValue();
    }

    /** A random id of `world`, 1..10000. */
    public static int randomId() {
        return ThreadLocalRandom.current().nextInt(1, WORLD_ROWS + 1);
    }

    /** A random number for /updates, 1..10000. */
    public static int randomNumber() {
        return ThreadLocalRandom.current().nextInt(1, WORLD_ROWS + 1);
    }

    /**
     * n different random ids in ascending order, for /updates: different, so that every row returned
     * holds the number written; ascending, so that concurrent updates lock rows in one order and
     * cannot deadlock.
     */
    public static int[] distinctSortedIds(int n) {
        return ThreadLocalRandom.current().ints(1, WORLD_ROWS + 1).distinct().limit(n).sorted().toArray();
    }

    public static NewDoc randomDoc() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new NewDoc(letters(random, TITLE_LENGTH), letters(random, BODY_LENGTH), random.nextInt(1, WORLD_ROWS + 1));
    }

    private static String letters(ThreadLocalRandom random, int length) {
        StringBuilder builder = new StringBuilder(length);
        for (int i = 0; i < length; i++) builder.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
        return builder.toString();
    }

    /** /db: one row as a JSON object. */
    public static Reply world(World world) {
        return json(appendWorld(new StringBuilder(40), world));
    }

    /** /queries and /updates: the rows as a JSON array. */
    public static Reply worlds(List<World> worlds) {
        StringBuilder builder = new StringBuilder(2 + 36 * worlds.size()).append('[');
        for (int i = 0; i < worlds.size(); i++) {
            if (i > 0) builder.append(',');
            appendWorld(builder, worlds.get(i));
        }
        return json(builder.append(']'));
    }

    private static StringBuilder appendWorld(StringBuilder builder, World world) {
        return builder.append("{\"id\":").append(world.id()).append(",\"randomNumber\":").append(world.randomNumber()).append('}');
    }

    /** /docs: the stored documents read as a JSON array of {id,title,body,count}. */
    public static Reply docs(List<Doc> docs) {
        StringBuilder builder = new StringBuilder(2 + 160 * docs.size()).append('[');
        for (int i = 0; i < docs.size(); i++) {
            Doc doc = docs.get(i);
            if (i > 0) builder.append(',');
            builder.append("{\"id\":").append(doc.id()).append(",\"title\":");
            appendJsonString(builder, doc.title()).append(",\"body\":");
            appendJsonString(builder, doc.body()).append(",\"count\":").append(doc.count()).append('}');
        }
        return json(builder.append(']'));
    }

    /** The seeded documents are ours, but a string is escaped as JSON wants whatever it holds. */
    private static StringBuilder appendJsonString(StringBuilder builder, String text) {
        builder.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> builder.append("\\\"");
                case '\\' -> builder.append("\\\\");
                case '\n' -> builder.append("\\n");
                case '\r' -> builder.append("\\r");
                case '\t' -> builder.append("\\t");
                default -> {
                    if (c < 0x20) builder.append(String.format("\\u%04x", (int) c));
                    else builder.append(c);
                }
            }
        }
        return builder.append('"');
    }

    /**
     * /fortunes: the stored rows plus the one added at request time, sorted by message (in code, as
     * TechEmpower asks), as the exact HTML of the contract, UTF-8.
     */
    public static Reply fortunes(List<Fortune> stored) {
        List<Fortune> fortunes = new ArrayList<>(stored.size() + 1);
        fortunes.addAll(stored);
        fortunes.add(new Fortune(0, ADDED_FORTUNE));
        fortunes.sort(Comparator.comparing(Fortune::message));
        StringBuilder html = new StringBuilder(1200)
                .append("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (Fortune fortune : fortunes) {
            html.append("<tr><td>").append(fortune.id()).append("</td><td>");
            appendEscapedHtml(html, fortune.message()).append("</td></tr>");
        }
        html.append("</table></body></html>");
        return new Reply(200, "text/html; charset=utf-8", html.toString().getBytes(StandardCharsets.UTF_8), null);
    }

    private static StringBuilder appendEscapedHtml(StringBuilder builder, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> builder.append("&amp;");
                case '<' -> builder.append("&lt;");
                case '>' -> builder.append("&gt;");
                case '"' -> builder.append("&quot;");
                case '\'' -> builder.append("&#39;");
                default -> builder.append(c);
            }
        }
        return builder;
    }

    private static Reply json(StringBuilder body) {
        return new Reply(200, JSON, body.toString().getBytes(StandardCharsets.UTF_8), null);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
