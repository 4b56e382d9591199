/**
 * The shadow's replay thread (./replayer.ts behind messages): the proxy's thread hands it each
 * exchange and each upstream delivery as it sees them, and asks it for the report; replaying,
 * comparing and keeping never take the proxy's event loop.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Replayer } from './replayer.js';
import type { ReplayerOptions, ShadowReply, ShadowRequest } from './shadow-messages.js';

const port = parentPort!;

/**
 * The replay thread takes only the CPU the proxy does not want: on Linux it runs at the lowest
 * scheduling priority (a thread is scheduled on its own there; /proc/thread-self names it), so on
 * a machine of few cores a partner's requests never wait for a replay. Elsewhere it runs as it is.
 */
function lowestPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
  } catch {
    // not Linux, or not allowed: the replay thread keeps the process's priority
  }
}
if ((workerData as ReplayerOptions).lowPriority) lowestPriority();
const replayer = new Replayer(workerData as ReplayerOptions);
const reply = (message: ShadowReply) => port.postMessage(message);

replayer.start().then(
  () => reply({ type: 'ready' }),
  (err: unknown) => reply({ type: 'failed', error: (err as Error).message }),
);

port.on('message', (batch: ShadowRequest[]) => {
  for (const m of batch) handle(m);
});

function handle(m: ShadowRequest): void {
  switch (m.type) {
    case 'exchange':
      return replayer.accept(m.exchange);
    case 'skip':
      return replayer.skip(m.index);
    case 'delivery':
      return replayer.upstreamDelivery(m.delivery);
    case 'clock':
      return replayer.clockRead(m.read);
    case 'refused':
      replayer.kept.refusedDeliveries++;
      return;
    case 'tick':
      return void replayer.tick(m.now, m.inFlightFloor);
    case 'settled':
      return void replayer.settled(m.upTo).then(() => reply({ type: 'answer', id: m.id, value: null }));
    case 'report':
      return reply({ type: 'answer', id: m.id, value: replayer.kept.report() });
    case 'render':
      return reply({ type: 'answer', id: m.id, value: replayer.kept.render(m.format) });
    case 'exchanges':
      return reply({ type: 'answer', id: m.id, value: replayer.kept.exchangesJson() });
    case 'har':
      return reply({ type: 'answer', id: m.id, value: replayer.kept.har(m.side) });
    case 'close':
      return void replayer.close().then(() => reply({ type: 'answer', id: m.id, value: null }));
  }
}
