import { describe, expectTypeOf, it } from 'vitest';
import { Folio } from './client.ts';
import type { FolioError, FolioErrorCode } from './errors.ts';
import type { ConvertContentResponse, ConvertFileResponse, ConvertJobAccepted, ConvertJsonResponse, ErrorCode, FinishedJob, Job } from './types.ts';

/**
 * Compile-time guarantees, checked by `tsc` (npm run typecheck) — the bodies never run a request: every call sits in
 * a function that is only type-checked.
 */
const folio = new Folio({ apiKey: 'k', baseUrl: 'https://folio.example', fetch: async () => new Response() });

describe('types', () => {
  it('narrows convert’s result by output (pdf when none is given)', () => {
    expectTypeOf(() => folio.convert({ markdown: '# x', output: 'pdf' })).returns.resolves.toEqualTypeOf<ConvertFileResponse>();
    expectTypeOf(() => folio.convert({ markdown: '# x' })).returns.resolves.toEqualTypeOf<ConvertFileResponse>();
    expectTypeOf(() => folio.convert({ markdown: '# x', output: 'docx' })).returns.resolves.toEqualTypeOf<ConvertFileResponse>();
    expectTypeOf(() => folio.convert({ url: 'https://e.com/a', output: 'markdown' })).returns.resolves.toEqualTypeOf<ConvertContentResponse>();
    expectTypeOf(() => folio.convert({ html: '<p>x</p>', output: 'text' })).returns.resolves.toEqualTypeOf<ConvertContentResponse>();
    expectTypeOf(() => folio.convert({ html: '<p>x</p>', output: 'json' })).returns.resolves.toEqualTypeOf<ConvertJsonResponse>();
    // An output only known at run time: any of the three.
    const output = 'html' as 'pdf' | 'html' | 'json';
    expectTypeOf(() => folio.convert({ markdown: 'x', output })).returns.resolves.toEqualTypeOf<ConvertFileResponse | ConvertContentResponse | ConvertJsonResponse>();
  });

  it('refuses unknown parameters, wrong outputs and background-only ones on convert', () => {
    // @ts-expect-error: not a parameter of /v2/convert
    void (() => folio.convert({ markdown: 'x', colour: 'red' }));
    // @ts-expect-error: not an output
    void (() => folio.convert({ markdown: 'x', output: 'epub' }));
    // @ts-expect-error: webhook_url belongs to convertAsync
    void (() => folio.convert({ markdown: 'x', webhook_url: 'https://h.example' }));
    // @ts-expect-error: async is set by convertAsync, not passed
    void (() => folio.convertAsync({ markdown: 'x', async: true }));
    // @ts-expect-error: not a parameter
    void (() => folio.convertAsync({ markdown: 'x', callback: 'https://h.example' }));
  });

  it('types the job methods and errors', () => {
    expectTypeOf(() => folio.convertAsync({ markdown: 'x', webhook_url: 'https://h.example' })).returns.resolves.toEqualTypeOf<ConvertJobAccepted>();
    expectTypeOf(() => folio.jobs.get('id')).returns.resolves.toEqualTypeOf<Job>();
    expectTypeOf(() => folio.jobs.wait('id')).returns.resolves.toEqualTypeOf<FinishedJob>();
    expectTypeOf<FolioError['code']>().toEqualTypeOf<FolioErrorCode>();
    expectTypeOf<'job_not_found'>().toExtend<ErrorCode>();
    expectTypeOf<'not_a_code'>().not.toExtend<FolioErrorCode>();
  });
});
