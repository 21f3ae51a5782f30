// A bare Fastify route for bench/http: the same response body a poll gets, with nothing behind it (no key, no
// limits, no store), so the bench can show what Folio's polling costs on top of Fastify on this machine.
// Run by bench/http/run.ts as its own process; prints its port.
import Fastify from 'fastify';

const body = process.env.BARE_BODY ?? '{"status":"succeeded"}';
const app = Fastify({ logger: false });
app.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
