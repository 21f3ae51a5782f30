// One member process of bench/kafka-clients: a client's worker or reader, started by run.ts as
//   node bench/kafka-clients/member.ts --cpu-role=<client> <part> '<MemberConfig as JSON>'
// so that bench/process-cpu.ts counts its CPU under its own role. It says `ready` over IPC once its group has given it
// partitions, answers `report` with its tally, and on `stop` leaves the group and exits.
import type { ClientModule, FromMember, MemberConfig, ToMember } from './protocol.ts';
import { Tally } from './protocol.ts';

const config = JSON.parse(process.argv.at(-1)!) as MemberConfig;
const send = (message: FromMember) => process.send?.(message);

/** An error's message with those of the errors it gathers (an AggregateError's, a cause), which say what failed. */
function describe(error: unknown, depth = 0): string {
  if (!(error instanceof Error) || depth > 3) return String(error);
  const inner = [...((error as { errors?: unknown[] }).errors ?? []), ...(error.cause ? [error.cause] : [])];
  return inner.length === 0 ? error.message : `${error.message} (${inner.slice(0, 3).map((e) => describe(e, depth + 1)).join('; ')})`;
}

function fail(error: unknown): never {
  const message = error instanceof Error ? `${describe(error)}\n${error.stack ?? ''}` : String(error);
  process.stderr.write(`[${config.client} ${config.part}] ${message}\n`);
  send({ type: 'error', message: message.split('\n')[0]! });
  process.exit(1);
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const client = (await import(`./clients/${config.client}.ts`)) as ClientModule;
const tally = new Tally();
let announced = false;
const ready = () => {
  if (announced) return;
  announced = true;
  send({ type: 'ready' });
};
const member = await (config.part === 'worker' ? client.startWorker(config, tally, ready) : client.startReader(config, tally, ready));

process.on('message', (message: ToMember) => {
  if (message.type === 'report') send({ type: 'report', report: tally.report() });
  if (message.type === 'stop') {
    member.stop().then(
      () => {
        send({ type: 'stopped' });
        process.disconnect?.();
        setTimeout(() => process.exit(0), 100).unref();
      },
      fail,
    );
  }
});
// The parent gone (killed, crashed): nothing to report to.
process.on('disconnect', () => setTimeout(() => process.exit(0), 2_000).unref());
