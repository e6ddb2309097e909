// The knob language of the Vert.x template: /hello, /json, /fib and /concat computed by the
// JavaScript handlers of src/main/js/handlers.js on Mozilla Rhino or on Nashorn instead of in Java.
// Neither engine is thread-safe, so each verticle instance makes its own in start(), on its event
// loop, compiles the script there once and calls it only from that loop. Everything else (the
// parameters, /sleep, /file, the database) stays in Java: only the computation changes language.

package benchlab.vertx;

import benchlab.common.Endpoints.Bodies;
import javax.script.Invocable;
import javax.script.ScriptEngine;
import javax.script.ScriptException;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.Scriptable;
import org.openjdk.nashorn.api.scripting.NashornScriptEngineFactory;

abstract class ScriptBodies implements Bodies {
    /** The Rhino of pom.xml (rhino.version): the shaded jar keeps no record of it Rhino can read. */
    private static final String RHINO_VERSION = "1.7.15";

    /** The engine's name and version for the start line, e.g. "Rhino 1.7.15". */
    abstract String engine();

    /** The handlers of `source` on the engine of `language` ("rhino" or "nashorn"), for the calling thread. */
    static ScriptBodies create(String language, String source) {
        return language.equals("rhino") ? new Rhino(source) : new Nashorn(source);
    }

    /** Rhino through its own API: a Context stays entered on the event loop's thread for good. */
    private static final class Rhino extends ScriptBodies {
        private final Context context;
        private final Scriptable scope;
        private final Function hello, json, fib, concat;

        Rhino(String source) {
            // Entered and never exited: the loop's thread keeps it (a second instance on the same thread gets the same one).
            context = Context.enter();
            scope = context.initStandardObjects();
            context.evaluateString(scope, source, "handlers.js", 1, null);
            hello = function("hello");
            json = function("json");
            fib = function("fib");
            concat = function("concat");
        }

        private Function function(String name) {
            Object value = scope.get(name, scope);
            if (!(value instanceof Function function)) throw new IllegalStateException("handlers.js has no function " + name);
            return function;
        }

        private String call(Function function, Object... args) {
            return Context.toString(function.call(context, scope, scope, args));
        }

        @Override public String hello() { return call(hello); }
        @Override public String json() { return call(json); }
        @Override public String fib(int n) { return call(fib, n); }
        @Override public String concat(int n) { return call(concat, n); }

        @Override
        String engine() {
            // Rhino finds its version in its jar's manifest, which the one-jar build drops.
            String version = context.getImplementationVersion();
            return version.contains("Snapshot") ? "Rhino " + RHINO_VERSION : version;
        }
    }

    /** Nashorn through javax.script, its factory named directly (no lookup among other engines). */
    private static final class Nashorn extends ScriptBodies {
        private final NashornScriptEngineFactory factory = new NashornScriptEngineFactory();
        private final Invocable invocable;

        Nashorn(String source) {
            ScriptEngine engine = factory.getScriptEngine();
            try {
                engine.eval(source);
            } catch (ScriptException error) {
                throw new IllegalStateException("handlers.js: " + error.getMessage(), error);
            }
            invocable = (Invocable) engine;
        }

        private String call(String name, Object... args) {
            try {
                return String.valueOf(invocable.invokeFunction(name, args));
            } catch (ScriptException | NoSuchMethodException error) {
                throw new IllegalStateException("handlers.js: " + name + ": " + error.getMessage(), error);
            }
        }

        @Override public String hello() { return call("hello"); }
        @Override public String json() { return call("json"); }
        @Override public String fib(int n) { return call("fib", n); }
        @Override public String concat(int n) { return call("concat", n); }

        @Override
        String engine() {
            return "Nashorn " + factory.getEngineVersion();
        }
    }
}
