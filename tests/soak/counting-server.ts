// The soak's server under load: a plain HTTP server run inside the lab's server host (its own
// process, so a fault can kill it with -9), which says on stdout how many requests it has answered
// and when the last one arrived, every 50 ms, stamped with its clock. The machine's one clock is
// the lab hosts' clock too, so the soak compares these times with the moment it injected a fault.
// Usage: node tests/soak/counting-server.ts ADDRESS PORT

import { createServer } from 'node:http';

const [address, port] = process.argv.slice(2);
// The soak that reads these lines is gone: so is the server's reason to run.
process.stdout.on('error', () => process.exit(0));
let answered = 0;
let lastRequestAt = 0;
const server = createServer((_request, response) => {
  answered++;
  lastRequestAt = Date.now();
  response.end('soak');
});
server.listen(Number(port), address, () => {
  console.log(JSON.stringify({ listening: true, now: Date.now() }));
  setInterval(() => console.log(JSON.stringify({ answered, lastRequestAt, now: Date.now() })), 50);
});
