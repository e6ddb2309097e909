// The async variant's threads besides the container's: a bounded pool for work that must block (the
// payload read from disk, JDBC calls: as many threads as database connections, since more would only
// wait for one) and one timer thread for /sleep. Both stop with the application.

package benchlab.springboot;

import benchlab.common.DatabaseUrl;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

@Component
@Profile("async")
class BlockingWork {
    private final ExecutorService pool = Executors.newFixedThreadPool(DatabaseUrl.poolSize(), named("blocking-work"));
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(named("sleep-timer"));

    /** Runs `work` on the bounded pool. */
    <T> CompletableFuture<T> submit(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, pool);
    }

    /** Runs `action` on the timer after `ms` milliseconds; no thread waits meanwhile. */
    void after(int ms, Runnable action) {
        timer.schedule(action, ms, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        pool.shutdownNow();
        timer.shutdownNow();
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
