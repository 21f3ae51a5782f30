import { describe, expect, it } from 'vitest';
import { NetworkError, ProtocolError, type MessageToProduce } from '@platformatic/kafka';
import { jobProcessing, type EventCodec, type JobEvent, type Topics } from '@folio/events';
import type { KafkaClients } from './kafka.ts';
import { EventPublisher, EventTooLargeError, MAX_EVENT_BYTES } from './publisher.ts';

// The publisher's queueing, over a producer that records its requests: what goes into each produce request and who
// is told what when one fails. Writing to a real broker is what every end-to-end test does.

const topics = { queuedSync: 'sync', queuedAsync: 'async', lifecycle: 'lifecycle' } as unknown as Topics;
// An event's encoding is its job id, except job 'big''s, which is over the limit.
const codec = {
  encode: async (event: JobEvent) => (event.job_id === 'big' ? Buffer.alloc(MAX_EVENT_BYTES + 1) : Buffer.from(event.job_id)),
} as unknown as EventCodec;

interface Recorder {
  requests: string[][];
  /** Settles the oldest request still open; `error` fails it. */
  answer(error?: unknown): void;
  open(): number;
}

function publisherWithRecorder(): { publisher: EventPublisher; recorder: Recorder } {
  const requests: string[][] = [];
  const pending: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  const producer = {
    send: ({ messages }: { messages: MessageToProduce[] }) => {
      requests.push(messages.map((m) => String(m.value)));
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
  };
  const kafka = { producer: () => producer } as unknown as KafkaClients;
  const recorder: Recorder = {
    requests,
    answer: (error) => {
      const next = pending.shift()!;
      if (error) next.reject(error);
      else next.resolve();
    },
    open: () => pending.length,
  };
  return { publisher: new EventPublisher(kafka, codec, topics), recorder };
}

const event = (id: string) => jobProcessing(id, 1, 'w');
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
const refusal = () => new ProtocolError('RECORD_LIST_TOO_LARGE');

describe('EventPublisher: writes made while one is under way go together in the next request', () => {
  it('writes an idle call at once, then everything queued behind it in one request, in call order', async () => {
    const { publisher, recorder } = publisherWithRecorder();
    const first = publisher.publish(event('a'));
    await settled();
    expect(recorder.requests).toEqual([['a']]);
    const rest = [publisher.publish(event('b'), event('c')), publisher.publish(event('d'))];
    await settled();
    expect(recorder.requests).toHaveLength(1); // one request in flight at a time
    recorder.answer();
    await first;
    await settled();
    expect(recorder.requests).toEqual([['a'], ['b', 'c', 'd']]);
    recorder.answer();
    await Promise.all(rest);
    expect(recorder.open()).toBe(0);
  });

  it('fails every call of a request the broker did not take, and goes on with the next', async () => {
    const { publisher, recorder } = publisherWithRecorder();
    const first = publisher.publish(event('a'));
    await settled();
    const grouped = [publisher.publish(event('b')), publisher.publish(event('c'))].map((p) => p.catch((e: unknown) => e));
    recorder.answer();
    await first;
    await settled();
    recorder.answer(new NetworkError('Connection error'));
    for (const outcome of await Promise.all(grouped)) expect(outcome).toBeInstanceOf(NetworkError);
    const later = publisher.publish(event('e'));
    await settled();
    recorder.answer();
    await later;
    expect(recorder.requests).toEqual([['a'], ['b', 'c'], ['e']]);
  });

  it('writes each call of a request refused for good on its own, so only the faulty one fails', async () => {
    const { publisher, recorder } = publisherWithRecorder();
    const first = publisher.publish(event('a'));
    await settled();
    const good = publisher.publish(event('b'));
    const bad = publisher.publish(event('c')).catch((e: unknown) => e);
    recorder.answer();
    await first;
    await settled();
    recorder.answer(refusal()); // the shared request [b, c]
    await settled();
    recorder.answer(); // b alone
    await good;
    await settled();
    recorder.answer(refusal()); // c alone
    expect(await bad).toBeInstanceOf(ProtocolError);
    expect(recorder.requests).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
  });

  it('fails a call whose events cannot be encoded on its own, before anything is written', async () => {
    const { publisher, recorder } = publisherWithRecorder();
    const first = publisher.publish(event('a'));
    await settled();
    const before = publisher.publish(event('b'));
    const big = publisher.publish(event('big')).catch((e: unknown) => e);
    const after = publisher.publish(event('c'));
    recorder.answer();
    await first;
    expect(await big).toBeInstanceOf(EventTooLargeError);
    await settled();
    recorder.answer();
    await Promise.all([before, after]);
    expect(recorder.requests).toEqual([['a'], ['b', 'c']]);
  });
});

describe('EventPublisher: a write that never settles', () => {
  it('fails its calls as timed out (outcome unknown) after the deadline, and later calls go through a new producer', async () => {
    const sends: string[][] = [];
    const closed: boolean[] = [];
    let made = 0;
    const kafka = {
      producer: () => {
        const which = made++;
        return {
          // The first producer is wedged: its send never settles. The second one answers at once.
          send: ({ messages }: { messages: MessageToProduce[] }) => {
            sends.push(messages.map((m) => `${which}:${String(m.value)}`));
            return which === 0 ? new Promise(() => {}) : Promise.resolve();
          },
          close: async () => {
            closed.push(which === 0);
          },
        };
      },
    } as unknown as KafkaClients;
    const publisher = new EventPublisher(kafka, codec, topics, 30);
    const wedged = publisher.publish(event('a'));
    await settled();
    const behind = publisher.publish(event('b')); // queued behind the wedged request
    const error = await wedged.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PublishTimeoutError', code: 'ETIMEDOUT', ambiguous: true });
    await behind;
    await publisher.publish(event('c'));
    expect(sends).toEqual([['0:a'], ['1:b'], ['1:c']]);
    expect(closed).toEqual([true]);
  });
});
