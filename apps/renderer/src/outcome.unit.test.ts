import { describe, expect, it } from 'vitest';
import { ConversionError } from '@folio/conversion';
import { outcomeOf } from './outcome.ts';

describe('what a run means for its job', () => {
  it('succeeds without an error', () => {
    expect(outcomeOf(null, 1, 3)).toEqual({ kind: 'succeeded' });
  });

  it('ends the job with a conversion error, which is the answer whatever the attempts', () => {
    expect(outcomeOf(new ConversionError('parse_failed', 'no article'), 1, 3)).toMatchObject({ kind: 'failed', error: { code: 'parse_failed', message: 'no article' } });
  });

  it('runs again after a failure of the service until the attempts are used, then fails with render_failed', () => {
    expect(outcomeOf(new Error('worker died'), 1, 3)).toEqual({ kind: 'again' });
    expect(outcomeOf(new ConversionError('render_failed', 'browser crashed'), 2, 3)).toEqual({ kind: 'again' });
    expect(outcomeOf(new Error('worker died'), 3, 3)).toMatchObject({ kind: 'failed', error: { code: 'render_failed', retryable: true, message: expect.stringContaining('after 3 attempts') } });
  });
});
