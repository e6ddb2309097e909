// The contract's endpoints that answer at once (/hello, /json, /health, /fib, /concat), mapped with
// Spring's annotations and computed by the JVM templates' shared code, so every JVM template gives the
// same answers. Spring MVC and WebFlux read the same annotations: each variant's controller extends
// this class and adds the two endpoints that wait (/sleep and /file), its own way. HEAD is answered as
// GET without the body by both; other methods get 405.

package benchlab.springboot;

import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Payload;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

abstract class ContractEndpoints {
    protected final Payload payload;

    protected ContractEndpoints(Payload payload) {
        this.payload = payload;
    }

    @GetMapping("/hello")
    ResponseEntity<byte[]> hello() {
        return answer("/hello", null);
    }

    @GetMapping("/json")
    ResponseEntity<byte[]> json() {
        return answer("/json", null);
    }

    @GetMapping("/health")
    ResponseEntity<byte[]> health() {
        return answer("/health", null);
    }

    /** CPU bound, on the thread that serves the request (an event loop in webflux, as Vert.x's). */
    @GetMapping("/fib")
    ResponseEntity<byte[]> fib(@RequestParam(name = "n", required = false) String n) {
        return answer("/fib", n);
    }

    @GetMapping("/concat")
    ResponseEntity<byte[]> concat(@RequestParam(name = "n", required = false) String n) {
        return answer("/concat", n);
    }

    /** The route of a GET of `path` whose one parameter (n or ms) is `parameter`. */
    protected static Endpoints.Route route(String path, String parameter) {
        return Endpoints.route("GET", path, name -> parameter);
    }

    private static ResponseEntity<byte[]> answer(String path, String parameter) {
        return Replies.of((Reply) route(path, parameter));
    }
}
