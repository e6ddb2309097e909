// Benchlab's Spray template: spray-can 1.3.4 on Akka 2.3 and Scala 2.11, serving the endpoints of
// Benchlab's endpoint contract (server-templates/CONTRACT.md) with one handler actor per
// connection. Variant "async" sleeps on the Akka scheduler and reads /file in a Future on a
// dispatcher meant for blocking I/O; variant "sync" does both inside the connection's actor, so a
// sleeping request holds a thread of the default dispatcher, as a blocking server would.
// Plain spray-can without spray-routing: the routing DSL needs shapeless macros and adds nothing
// to what is measured.

package benchlab.spray

import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.ThreadLocalRandom

import scala.concurrent.Future
import scala.concurrent.duration._
import scala.util.{Failure, Success}

import akka.actor.{Actor, ActorRef, ActorSystem, Props, Terminated}
import akka.io.IO
import com.typesafe.config.ConfigFactory
import spray.can.Http
import spray.http._

/** Command-line options, checked before anything starts so that a bad one fails the start. */
final case class Options(port: Int, variant: String, payload: Path, cacheFile: Boolean, threads: Int)

object Options {
  def parse(args: Array[String]): Options = {
    var port = 8080
    var variant = "async"
    var payload: Path = null
    var cacheFile = false
    var threads = 0
    if (args.length % 2 != 0) fail("options come in pairs: --name value")
    for (i <- args.indices by 2) {
      val value = args(i + 1)
      args(i) match {
        case "--port" => port = wholeNumber("--port", value)
        case "--variant" => variant = value
        case "--payload" => payload = Paths.get(value)
        case "--cache-file" => cacheFile = boolean("--cache-file", value)
        case "--threads" => threads = wholeNumber("--threads", value)
        case other => fail(s"unknown option $other")
      }
    }
    if (port < 1 || port > 65535) fail("--port must be 1-65535")
    if (variant != "async" && variant != "sync") fail("--variant must be async or sync")
    if (payload == null) fail("--payload is required")
    if (threads > 1024) fail("--threads must be 0-1024")
    Options(port, variant, payload, cacheFile, threads)
  }

  private def wholeNumber(name: String, value: String): Int =
    if (value.matches("\\d{1,9}")) value.toInt else fail(s"$name must be a whole number (got $value)")

  private def boolean(name: String, value: String): Boolean = value match {
    case "true" => true
    case "false" => false
    case _ => fail(s"$name must be true or false (got $value)")
  }

  def fail(message: String): Nothing = {
    System.err.println(s"benchlab-spray: $message")
    sys.exit(2)
  }
}

/** The endpoints' pure parts: parameters, limits, fib and concat. */
object Endpoints {
  val FibMax = 45
  val ConcatMax = 1000000
  val SleepMax = 60000
  private val Letters = "abcdefghijklmnopqrstuvwxyz"

  /** A whole-number query parameter within [0, max]; its default when absent; None when invalid. */
  def intParam(query: Uri.Query, name: String, default: Int, max: Int): Option[Int] =
    query.get(name) match {
      case None => Some(default)
      case Some(text) if text.matches("\\d{1,10}") && text.toLong <= max => Some(text.toInt)
      case Some(_) => None
    }

  def fib(n: Int): Long = if (n < 2) n else fib(n - 1) + fib(n - 2)

  /** n random letters appended one at a time (a builder: String += would be quadratic in n). */
  def concat(n: Int): String = {
    val random = ThreadLocalRandom.current()
    val builder = new java.lang.StringBuilder(n)
    var i = 0
    while (i < n) { builder.append(Letters.charAt(random.nextInt(Letters.length))); i += 1 }
    builder.toString
  }
}

object Responses {
  private val TextPlain = ContentType(MediaTypes.`text/plain`)
  private val Json = ContentType(MediaTypes.`application/json`)
  private val Binary = ContentType(MediaTypes.`application/octet-stream`)

  def text(status: StatusCode, body: String): HttpResponse =
    HttpResponse(status, HttpEntity(TextPlain, HttpData(body.getBytes("UTF-8"))))
  def json(body: String): HttpResponse = HttpResponse(StatusCodes.OK, HttpEntity(Json, HttpData(body.getBytes("UTF-8"))))
  def bytes(body: Array[Byte]): HttpResponse = HttpResponse(StatusCodes.OK, HttpEntity(Binary, HttpData(body)))
  val notFound: HttpResponse = text(StatusCodes.NotFound, "not found\n")
  val methodNotAllowed: HttpResponse =
    text(StatusCodes.MethodNotAllowed, "method not allowed\n").withHeaders(HttpHeaders.Allow(HttpMethods.GET, HttpMethods.HEAD))
}

/** Accepts connections and gives each its own handler actor. */
final class Listener(options: Options, cached: Array[Byte]) extends Actor {
  def receive: Receive = {
    case Http.Bound(address) =>
      println(s"spray-can 1.3.4 on Java ${System.getProperty("java.version")}: listening on port ${address.getPort} " +
        s"(variant ${options.variant}, ${if (options.threads == 0) "default handler threads" else s"${options.threads} handler threads"}, ${if (options.cacheFile) "payload cached in memory" else "payload read per request"})")
    case Http.CommandFailed(_: Http.Bind) =>
      System.err.println(s"benchlab-spray: cannot listen on port ${options.port}")
      context.system.shutdown()
      sys.exit(1)
    case Http.Connected(_, _) =>
      val connection = sender()
      connection ! Http.Register(context.actorOf(Props(new ConnectionHandler(connection, options, cached)).withDispatcher("benchlab.handlers")))
  }
}

/**
 * Serves one connection's requests, in order (spray-can pipelines them to one actor). It ends when
 * the connection's actor does: stopping first, on ConnectionClosed, would break spray's death pact
 * with it and log an error for every closed connection.
 */
final class ConnectionHandler(connection: ActorRef, options: Options, cached: Array[Byte]) extends Actor {
  import Endpoints._
  import Responses._

  private val sync = options.variant == "sync"
  private lazy val blockingIo = context.system.dispatchers.lookup("benchlab.blocking-io")

  override def preStart(): Unit = context.watch(connection)

  def receive: Receive = {
    case request: HttpRequest => serve(request, sender())
    case Terminated(`connection`) => context.stop(self)
    case _: Http.ConnectionClosed => // the connection's actor stops next
  }

  private def badParam(name: String, max: Int) = text(StatusCodes.BadRequest, s"$name must be a whole number from 0 to $max\n")

  private def serve(request: HttpRequest, client: ActorRef): Unit = {
    // spray-can answers HEAD as GET without the body (transparent-head-requests).
    if (request.method != HttpMethods.GET) { client ! methodNotAllowed; return }
    val query = request.uri.query
    request.uri.path.toString match {
      case "/hello" => client ! text(StatusCodes.OK, "hello world\n")
      case "/health" => client ! text(StatusCodes.OK, "ok\n")
      case "/json" => client ! json("{\"message\":\"Hello, World!\"}")
      case "/file" =>
        if (options.cacheFile) client ! bytes(cached)
        else if (sync) client ! bytes(Files.readAllBytes(options.payload))
        else {
          // Disk reads block: run them on the blocking-I/O dispatcher and answer when done.
          Future(Files.readAllBytes(options.payload))(blockingIo).onComplete {
            case Success(body) => client ! bytes(body)
            case Failure(error) =>
              System.err.println(s"benchlab-spray: /file failed: $error")
              client ! text(StatusCodes.InternalServerError, "internal error\n")
          }(blockingIo)
        }
      case "/fib" =>
        intParam(query, "n", 30, FibMax) match {
          case Some(n) => client ! text(StatusCodes.OK, s"${fib(n)}\n")
          case None => client ! badParam("n", FibMax)
        }
      case "/concat" =>
        intParam(query, "n", 10000, ConcatMax) match {
          case Some(n) => client ! text(StatusCodes.OK, concat(n))
          case None => client ! badParam("n", ConcatMax)
        }
      case "/sleep" =>
        intParam(query, "ms", 500, SleepMax) match {
          case Some(ms) =>
            val answer = text(StatusCodes.OK, s"slept $ms ms\n")
            if (sync) { Thread.sleep(ms.toLong); client ! answer }
            else context.system.scheduler.scheduleOnce(ms.millis, client, answer)(context.dispatcher)
          case None => client ! badParam("ms", SleepMax)
        }
      case _ => client ! notFound
    }
  }
}

object Main {
  /**
   * The dispatcher the connection handlers run on, apart from the one accepting connections, so
   * that handlers blocked in the sync variant delay requests instead of dropping new connections.
   * 0 sizes it like Akka's default dispatcher (3 threads per core, 8 to 64); N pins it to N threads.
   */
  private def handlerDispatcher(threads: Int) = {
    val (min, factor, max) = if (threads == 0) (8, 3.0, 64) else (threads, 1.0, threads)
    ConfigFactory.parseString(
      s"benchlab.handlers { type = Dispatcher, executor = fork-join-executor, " +
        s"fork-join-executor { parallelism-min = $min, parallelism-factor = $factor, parallelism-max = $max } }")
  }

  def main(args: Array[String]): Unit = {
    val options = Options.parse(args)
    // Read once at start, so that a missing payload fails the start and not the first request.
    val cached = try Files.readAllBytes(options.payload) catch {
      case error: java.io.IOException => Options.fail(s"cannot read the payload ${options.payload}: $error")
    }
    // The contract's /sleep may take 60 s: spray's 20 s request timeout would cut it short.
    val config = ConfigFactory.parseString(
      """
        |akka.loglevel = INFO
        |akka.log-dead-letters = off
        |spray.can.server.request-timeout = 90 s
        |spray.can.server.idle-timeout = 120 s
        |spray.can.server.pipelining-limit = 16
        |spray.can.server.server-header = "spray-can/1.3.4"
        |benchlab.blocking-io {
        |  type = Dispatcher
        |  executor = "thread-pool-executor"
        |  thread-pool-executor { core-pool-size-min = 4, core-pool-size-max = 16 }
        |}
        |""".stripMargin)
      .withFallback(handlerDispatcher(options.threads))
      .withFallback(ConfigFactory.load())
    implicit val system: ActorSystem = ActorSystem("benchlab", config)
    sys.addShutdownHook { system.shutdown(); system.awaitTermination(5.seconds) }
    val listener = system.actorOf(Props(new Listener(options, cached)), "listener")
    IO(Http).tell(Http.Bind(listener, interface = "0.0.0.0", port = options.port, backlog = 1024), listener)
  }
}
