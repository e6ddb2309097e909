// The body of one load worker thread: its share of the connections (closed model) or of the rate
// and the connection maximum (open model), its books, and its event-loop lag. Answers the
// coordinator's messages: `flush` (hand over one phase's interval), `drain` (schedule nothing more;
// say `drained` once nothing measured is in flight), `settle` (the drain is over: fail what is
// left), `halt` (the step is cut short: send nothing more), `finish` (close every connection,
// settling nothing).

import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MessagePort } from 'node:worker_threads';
import { ClosedDriver } from './closed-driver.ts';
import { encodeRequest } from './http-client.ts';
import { IntervalRecorder } from './interval-recorder.ts';
import { OpenDriver } from './open-driver.ts';
import type { Driver, DriverContext, FromThread, ThreadSetup, ToThread } from './thread-messages.ts';

export function runLoadThread(setup: ThreadSetup, port: MessagePort): void {
  const recorder = new IntervalRecorder();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const post = (message: FromThread) => port.postMessage(message);
  const context: DriverContext = { setup, recorder, post };
  const request = encodeRequest(setup.target, setup.request);
  const driver: Driver = setup.closed ? new ClosedDriver(context, request) : new OpenDriver(context, request);

  port.on('message', (message: ToThread) => {
    try {
      switch (message.type) {
        case 'start':
          driver.start(message.startAt);
          break;
        case 'flush': {
          driver.catchUp(message.at);
          const lagMs = lag.count > 0 ? lag.percentile(99) / 1e6 : 0;
          lag.reset();
          const data = recorder.take(message.tag, message.last);
          post({ type: 'interval', round: message.round, thread: setup.index, tag: message.tag, lagMs, backlog: driver.backlog, connections: driver.connections, ...data });
          break;
        }
        case 'drain':
          driver.drain(message.at);
          break;
        case 'halt':
          driver.halt(message.at);
          break;
        case 'settle':
          driver.settle();
          break;
        case 'finish':
          driver.finish();
          lag.disable();
          break;
      }
    } catch (error) {
      post({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
    }
  });
  post({ type: 'ready' });
}
