// The command line of a JVM template, as Benchlab renders it from template.json: `--name value`
// pairs, each checked against what the template knows; a wrong one ends the process with exit code
// 2 and a message naming the template, so a bad start is plain in the server's log.

package benchlab.common;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class Options {
    /** How the template names itself in its messages, e.g. "benchlab-tomcat". */
    private final String program;
    private final Map<String, String> values;

    private Options(String program, Map<String, String> values) {
        this.program = program;
        this.values = values;
    }

    /** Reads `--name value` pairs; any name not in `known` is refused. */
    public static Options parse(String program, String[] args, String... known) {
        Options options = new Options(program, new HashMap<>());
        if (args.length % 2 != 0) options.fail("options come in pairs: --name value");
        Set<String> names = Set.of(known);
        for (int i = 0; i < args.length; i += 2) {
            if (!names.contains(args[i])) options.fail("unknown option " + args[i]);
            options.values.put(args[i], args[i + 1]);
        }
        return options;
    }

    /** One of `allowed`; the first when the option is absent. */
    public String choice(String name, String... allowed) {
        String value = values.getOrDefault(name, allowed[0]);
        if (!Arrays.asList(allowed).contains(value)) fail(name + " must be one of " + String.join(", ", allowed) + " (got " + value + ")");
        return value;
    }

    public String required(String name) {
        String value = values.get(name);
        if (value == null) fail(name + " is required");
        return value;
    }

    public Path path(String name) {
        return Path.of(required(name));
    }

    public int number(String name, int min, int max) {
        String text = required(name);
        if (!text.matches("\\d{1,9}") || Integer.parseInt(text) < min || Integer.parseInt(text) > max) {
            fail(name + " must be a whole number from " + min + " to " + max + " (got " + text + ")");
        }
        return Integer.parseInt(text);
    }

    /** true or false; false when absent. */
    public boolean flag(String name) {
        String text = values.getOrDefault(name, "false");
        if (!List.of("true", "false").contains(text)) fail(name + " must be true or false (got " + text + ")");
        return text.equals("true");
    }

    /** The payload of --payload, served from memory with --cache-file true. */
    public Payload payload() {
        return Payload.load(this, path("--payload"), flag("--cache-file"));
    }

    /** Ends the process: exit code 2, the message on stderr. */
    public void fail(String message) {
        System.err.println(program + ": " + message);
        System.exit(2);
    }
}
