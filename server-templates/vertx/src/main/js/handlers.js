// The Vert.x template's compute handlers in JavaScript (knob language: rhino or nashorn), plain
// ES5 so that both engines run the same text. Each verticle instance compiles this file once into
// its own engine; the Java handler checks the query parameters and calls these on the event loop,
// then sends the returned string as the body, so the bytes are the contract's (CONTRACT.md).

var LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function hello() {
  return 'hello world\n';
}

// Built by the engine's JSON.stringify per request, as a JavaScript handler would.
function json() {
  return JSON.stringify({ message: 'Hello, World!' });
}

// Recursive on purpose: /fib is a CPU load. Numbers are doubles; fib(45) is exact in one.
function fibOf(n) {
  return n < 2 ? n : fibOf(n - 1) + fibOf(n - 2);
}

function fib(n) {
  return String(fibOf(n)) + '\n';
}

// One character at a time with +=, as the contract asks of every template.
function concat(n) {
  var text = '';
  for (var i = 0; i < n; i++) text += LETTERS.charAt(Math.floor(Math.random() * LETTERS.length));
  return text;
}
