import { afterEach, describe, expect, it, vi } from 'vitest';
import { kafkajsRequestQueue, mendRequestQueue, RECHECK_PENDING_MS } from './request-queue.ts';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
type Queue = {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
};
const RequestQueue = kafkajsRequestQueue() as unknown as { new (options: object): Queue; prototype: Queue & { scheduleCheckPendingRequests(): void } };
const original = RequestQueue.prototype.scheduleCheckPendingRequests;
const queue = () =>
  new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 1000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:1', logger: silent });

afterEach(() => {
  vi.useRealTimers();
});

describe("kafkajs' request queue, mended", () => {
  it('as released, re-arms a timer after every check even with nothing waiting (the loop being mended)', () => {
    // Fake timers: the released method's negative delay would make a real Node 24 timer print TimeoutNegativeWarning.
    vi.useFakeTimers();
    const q = queue();
    original.call(q);
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    expect(vi.getTimerCount()).toBe(1);
    clearTimeout(q.throttleCheckTimeoutId!);
  });

  it('arms no timer when nothing waits', () => {
    mendRequestQueue();
    const q = queue();
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('looks again when a broker throttle ends, for requests that wait on it', () => {
    vi.useFakeTimers();
    mendRequestQueue();
    const q = queue();
    const check = vi.spyOn(q, 'checkPendingRequests').mockImplementation(() => {});
    q.throttledUntil = Date.now() + 200;
    q.pending.push({});
    RequestQueue.prototype.scheduleCheckPendingRequests.call(q);
    vi.advanceTimersByTime(199);
    expect(check).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(check).toHaveBeenCalledTimes(1);
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('looks again shortly for requests held back by the in-flight limit, once', () => {
    vi.useFakeTimers();
    mendRequestQueue();
    const q = queue();
    const check = vi.spyOn(q, 'checkPendingRequests').mockImplementation(() => {});
    q.pending.push({});
    RequestQueue.prototype.scheduleCheckPendingRequests.call(q);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(q);
    vi.advanceTimersByTime(RECHECK_PENDING_MS);
    expect(check).toHaveBeenCalledTimes(1);
  });
});
