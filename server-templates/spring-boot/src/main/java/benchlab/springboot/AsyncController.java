// Variant "async": Spring MVC's asynchronous controllers on the servlet container. /sleep returns a
// DeferredResult that a timer completes, /file a CompletableFuture read on the bounded blocking pool:
// neither holds a request thread while it waits.

package benchlab.springboot;

import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.Payload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

@RestController
@Profile("async")
class AsyncController extends ContractEndpoints {
    private final BlockingWork work;

    AsyncController(Payload payload, BlockingWork work) {
        super(payload);
        this.work = work;
    }

    @GetMapping("/sleep")
    DeferredResult<ResponseEntity<byte[]>> sleep(@RequestParam(name = "ms", required = false) String ms) {
        DeferredResult<ResponseEntity<byte[]>> result = new DeferredResult<>();
        Route route = route("/sleep", ms);
        if (route instanceof Sleep sleep) work.after(sleep.ms(), () -> result.setResult(Replies.of(sleep.reply())));
        else result.setResult(Replies.of((Reply) route));
        return result;
    }

    @GetMapping("/file")
    CompletableFuture<ResponseEntity<byte[]>> file() {
        if (payload.inMemory()) return CompletableFuture.completedFuture(Replies.of(Endpoints.file(payload.atStart())));
        return work.submit(() -> {
            try {
                return Replies.of(Endpoints.file(payload.read()));
            } catch (IOException error) {
                throw new UncheckedIOException(error);
            }
        });
    }
}
