import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { MultipleErrors, NetworkError, ProtocolError, TimeoutError, UserError } from '@platformatic/kafka';
import { ConfluentSchemaRegistryArgumentError } from '@kafkajs/confluent-schema-registry/dist/errors.js';
import { backoffMs, classifyFailure, ConsumerStoppedError, refusedForGood, retryTransient, settle } from './failures.ts';
import { EventTooLargeError } from './publisher.ts';

/** A Postgres error as postgres.js builds it from the server's answer. */
function pgError(code: string, message: string): Error {
  const PostgresError = (postgres as unknown as { PostgresError: new (x: object) => Error }).PostgresError;
  return new PostgresError({ code, message, severity: 'ERROR', severity_local: 'ERROR' });
}

function socketError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });
}

describe('telling transient failures from permanent ones', () => {
  it('transient: a store or the broker away or slow', () => {
    const transient = [
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' }),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('53300', 'sorry, too many clients already'),
      pgError('08006', 'connection failure'),
      pgError('40P01', 'deadlock detected'),
      new NetworkError('Connection to 127.0.0.1:29092 failed.', { cause: socketError('ECONNREFUSED') }),
      new TimeoutError('Request timed out after 30000 ms.'),
      new ProtocolError('LEADER_NOT_AVAILABLE'),
      new ProtocolError('COORDINATOR_LOAD_IN_PROGRESS'),
      // What a client throws once its own retries ran out against a broker that is away.
      new MultipleErrors('Producing failed 26 times.', [new NetworkError('Connection closed'), new NetworkError('Connection closed')]),
      // The registry's HTTP client reports a refused connection as a 400 carrying the socket error's message.
      Object.assign(new Error('folio - connect ECONNREFUSED 127.0.0.1:18081'), { name: 'ResponseError', status: 400 }),
      Object.assign(new Error('folio - Error, status 503'), { name: 'ResponseError', status: 503 }),
      // Two processes registering a new subject at once (seen in the test suite): the loser's answer.
      Object.assign(new Error("folio - A rule named 'COMPATIBILITY' already exists."), { name: 'ResponseError', status: 409 }),
      Object.assign(new Error('Compatibility does not match the configuration (BACKWARD != NONE)'), { name: 'ConfluentSchemaRegistryCompatibilityError' }),
      Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } }),
    ];
    for (const error of transient) expect(classifyFailure(error), `${error.name}: ${error.message}`).toBe('transient');
  });

  it('permanent: the event itself cannot be applied', () => {
    const permanent = [
      pgError('22P05', 'unsupported Unicode escape sequence'),
      pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'),
      pgError('22007', 'invalid input syntax for type timestamp with time zone: "yesterday-ish"'),
      pgError('23514', 'new row for relation "job_history" violates check constraint'),
      pgError('42703', 'column "nope" does not exist'),
      new ConfluentSchemaRegistryArgumentError('Message encoded with magic byte {"type":"Buffer","data":[47]}, expected 0'),
      Object.assign(new Error('folio - Schema 40400 not found'), { name: 'ResponseError', status: 404 }),
      new ProtocolError('MESSAGE_TOO_LARGE'),
      new MultipleErrors('Producing failed.', [new ProtocolError('INVALID_RECORD')]),
      new UserError('Invalid options.'),
      new RangeError('invalid "string": 12'),
      new TypeError("Cannot read properties of undefined (reading 'job_id')"),
      'a string thrown',
      null,
    ];
    for (const error of permanent) expect(classifyFailure(error), String((error as Error)?.message ?? error)).toBe('permanent');
  });

  it('looks through wrapped causes', () => {
    const wrapped = new Error('batch failed', { cause: socketError('ECONNREFUSED') });
    expect(classifyFailure(wrapped)).toBe('transient');
  });

  it('tells a broker that refuses a request for good from one that is away', () => {
    expect(refusedForGood(new MultipleErrors('Producing failed.', [new ProtocolError('MESSAGE_TOO_LARGE')]))).toBe(true);
    expect(refusedForGood(new ProtocolError('INVALID_RECORD'))).toBe(true);
    expect(refusedForGood(new MultipleErrors('Producing failed.', [new NetworkError('Connection closed')]))).toBe(false);
    expect(refusedForGood(new ProtocolError('NOT_LEADER_OR_FOLLOWER'))).toBe(false);
    expect(refusedForGood(new Error('anything else'))).toBe(false);
  });

  it('an event over the size limit is permanent', () => {
    const event = { type: 'JobSucceeded', job_id: 'j' } as never;
    expect(classifyFailure(new EventTooLargeError(event, 300_000))).toBe('permanent');
  });
});

describe('retrying', () => {
  const always = { active: () => true };

  it('backs off by doubling, capped', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoffMs(n, 250, 1000))).toEqual([250, 500, 1000, 1000, 1000]);
  });

  it('retries a transient failure in place until it passes, and tells each one', async () => {
    let calls = 0;
    const told: number[] = [];
    const value = await retryTransient(
      async () => {
        if (++calls < 3) throw socketError('ECONNREFUSED');
        return 'done';
      },
      { ...always, onTransient: (_e, retry) => told.push(retry) },
    );
    expect(value).toBe('done');
    expect(told).toEqual([1, 2]);
  });

  it('throws a permanent failure at once', async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls++;
        throw pgError('22P05', 'unsupported Unicode escape sequence');
      }, always),
    ).rejects.toThrow(/Unicode/);
    expect(calls).toBe(1);
  });

  it('settles a permanent failure after a bounded number of tries, with the last error', async () => {
    let calls = 0;
    const outcome = await settle(async () => {
      calls++;
      throw pgError('23514', `check violated, try ${calls}`);
    }, { ...always, tries: 3 });
    expect(outcome).toMatchObject({ ok: false, tries: 3 });
    expect(calls).toBe(3);
    expect((outcome as { error: Error }).error.message).toMatch(/try 3/);
  });

  it('gives up waiting when the consumer stops, without settling', async () => {
    let active = true;
    const waiting = retryTransient(async () => {
      throw socketError('ECONNREFUSED');
    }, { active: () => active });
    setTimeout(() => (active = false), 50);
    await expect(waiting).rejects.toBeInstanceOf(ConsumerStoppedError);
    await expect(settle(async () => { throw socketError('ECONNRESET'); }, { active: () => false, tries: 3 })).rejects.toBeInstanceOf(ConsumerStoppedError);
  });
});
