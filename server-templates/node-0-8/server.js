// Benchlab's Node.js 0.8 template: the contract's plain endpoints (../CONTRACT.md) on the Node of
// 2012, as the ab seed measured it, with node's own http module and nothing else. Written in ES5
// with callbacks because Node 0.8 knows no arrow functions, promises, classes or `let`; Benchlab
// uploads Node 0.8.28 itself (the template asks for that exact release), whatever Node the host has.
// Command line: --port N --payload FILE [--cache-file true|false]. TERM ends it at once.

var http = require('http');
var fs = require('fs');
var url = require('url');

var LIMITS = { fib: 45, concat: 1000000, sleepMs: 60000 };
var DEFAULTS = { fib: 30, concat: 10000, sleepMs: 500 };
var LETTERS = 'abcdefghijklmnopqrstuvwxyz';
var READ_ONLY = { GET: true, HEAD: true };

function parseOptions(argv) {
  var options = { port: 0, payload: null, cacheFile: false };
  for (var i = 0; i < argv.length; i += 2) {
    var name = argv[i];
    var value = argv[i + 1];
    if (name === '--port') options.port = Number(value);
    else if (name === '--payload') options.payload = value;
    else if (name === '--cache-file') options.cacheFile = value === 'true';
    else throw new Error('unknown option ' + name);
  }
  if (!(options.port >= 1 && options.port <= 65535 && options.port % 1 === 0)) throw new Error('--port must be 1-65535');
  if (!options.payload) throw new Error('--payload is required');
  return options;
}

/** A whole-number query value within [0, max], `fallback` when absent, or null when invalid. */
function wholeNumber(value, fallback, max) {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return null;
  var number = Number(value);
  return number <= max ? number : null;
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function randomLetters(n) {
  var letters = '';
  for (var i = 0; i < n; i++) letters += LETTERS.charAt(Math.floor(Math.random() * LETTERS.length));
  return letters;
}

function send(response, status, type, body, extra) {
  var headers = { 'Content-Type': type, 'Content-Length': typeof body === 'string' ? Buffer.byteLength(body) : body.length };
  for (var name in extra || {}) headers[name] = extra[name];
  response.writeHead(status, headers);
  response.end(body);
}

function text(response, status, body) {
  send(response, status, 'text/plain', body);
}

function start(options) {
  // Read once at start: a missing payload fails the start, not the first request.
  var cachedPayload = fs.readFileSync(options.payload);

  var routes = {
    '/hello': function (query, response) { text(response, 200, 'hello world\n'); },
    '/health': function (query, response) { text(response, 200, 'ok\n'); },
    '/json': function (query, response) { send(response, 200, 'application/json', JSON.stringify({ message: 'Hello, World!' })); },
    '/file': function (query, response) {
      if (options.cacheFile) return send(response, 200, 'application/octet-stream', cachedPayload);
      fs.readFile(options.payload, function (error, bytes) {
        if (error) return text(response, 500, 'internal error\n');
        send(response, 200, 'application/octet-stream', bytes);
      });
    },
    '/fib': function (query, response) {
      var n = wholeNumber(query.n, DEFAULTS.fib, LIMITS.fib);
      if (n === null) return text(response, 400, 'n must be a whole number from 0 to ' + LIMITS.fib + '\n');
      text(response, 200, fib(n) + '\n');
    },
    '/concat': function (query, response) {
      var n = wholeNumber(query.n, DEFAULTS.concat, LIMITS.concat);
      if (n === null) return text(response, 400, 'n must be a whole number from 0 to ' + LIMITS.concat + '\n');
      text(response, 200, randomLetters(n));
    },
    '/sleep': function (query, response) {
      var ms = wholeNumber(query.ms, DEFAULTS.sleepMs, LIMITS.sleepMs);
      if (ms === null) return text(response, 400, 'ms must be a whole number from 0 to ' + LIMITS.sleepMs + '\n');
      setTimeout(function () { text(response, 200, 'slept ' + ms + ' ms\n'); }, ms);
    }
  };

  var server = http.createServer(function (request, response) {
    var parsed = url.parse(request.url, true);
    var route = Object.prototype.hasOwnProperty.call(routes, parsed.pathname) ? routes[parsed.pathname] : null;
    if (!route) return text(response, 404, 'not found\n');
    if (!READ_ONLY[request.method]) return send(response, 405, 'text/plain', 'method not allowed\n', { Allow: 'GET, HEAD' });
    route(parsed.query, response);
  });
  server.on('error', function (error) {
    process.stderr.write('cannot listen on port ' + options.port + ': ' + error.message + '\n');
    process.exit(1);
  });
  server.listen(options.port, function () {
    console.log('listening on port ' + options.port + ' (Node ' + process.version + ')');
  });
  process.on('SIGTERM', function () { process.exit(0); });
  process.on('SIGINT', function () { process.exit(0); });
}

var options;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(error.message + '\n');
  process.exit(2);
}
start(options);
