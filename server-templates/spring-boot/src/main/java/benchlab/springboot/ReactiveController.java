// Variant "webflux": Spring WebFlux on Reactor Netty's event loops. /sleep is a Reactor timer
// (Mono.delay), /file a blocking read moved off the event loop to Reactor's bounded-elastic scheduler
// (Reactor's own answer for blocking calls) unless the payload is in memory.

package benchlab.springboot;

import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.Payload;
import java.time.Duration;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

@RestController
@Profile("webflux")
class ReactiveController extends ContractEndpoints {
    ReactiveController(Payload payload) {
        super(payload);
    }

    @GetMapping("/sleep")
    Mono<ResponseEntity<byte[]>> sleep(@RequestParam(name = "ms", required = false) String ms) {
        Route route = route("/sleep", ms);
        if (!(route instanceof Sleep sleep)) return Mono.just(Replies.of((Reply) route));
        return Mono.delay(Duration.ofMillis(sleep.ms())).map(tick -> Replies.of(sleep.reply()));
    }

    @GetMapping("/file")
    Mono<ResponseEntity<byte[]>> file() {
        if (payload.inMemory()) return Mono.just(Replies.of(Endpoints.file(payload.atStart())));
        return Mono.fromCallable(() -> Replies.of(Endpoints.file(payload.read()))).subscribeOn(Schedulers.boundedElastic());
    }
}
