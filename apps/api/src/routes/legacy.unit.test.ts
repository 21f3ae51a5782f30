import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '@folio/events';
import { ApiError } from '../errors.ts';
import { LEGACY_ERRORS, LEGACY_TYPES, legacyFailure } from './legacy-errors.ts';
import { legacyRequest, REFUSED_PARAMETERS } from './legacy-params.ts';

describe('legacy error answers', () => {
  it('gives every interface code a legacy status and type', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const { status, type } = LEGACY_ERRORS[code];
      expect([400, 401, 404, 429], code).toContain(status);
      expect(LEGACY_TYPES, code).toContain(type);
    }
  });

  it('maps each code as the interface reads', () => {
    const answers = Object.fromEntries(
      (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
        const { status, body } = legacyFailure(new ApiError(code, 'why'));
        return [code, `${status} ${body.type}`];
      }),
    );
    expect(answers).toEqual({
      invalid_parameters: '400 parameters-validation',
      api_key_required: '401 parameters-validation',
      invalid_api_key: '401 parameters-validation',
      subscription_inactive: '401 parameters-validation',
      limit_exceeded: '401 parameters-validation',
      quota_exceeded: '401 parameters-validation',
      rate_limited: '429 high-load',
      fetch_failed: '400 fetch-error',
      parse_failed: '400 failed-parsed',
      homepage_url: '400 failed-parsed',
      render_timeout: '400 timeout',
      render_failed: '400 catch-all',
      html_too_large: '400 large-page',
      content_blocked: '400 banned-domain',
      job_not_found: '404 catch-all',
    });
  });

  it('answers the monthly quota and a key’s own limit with 401 and an API-limit-exceeded message, not 402', () => {
    for (const code of ['quota_exceeded', 'limit_exceeded'] as const) {
      const { status, body } = legacyFailure(new ApiError(code, 'this key has used its 100 documents'));
      expect(status).toBe(401);
      expect(body).toEqual({ status: 'failed', type: 'parameters-validation', message: 'API limit exceeded: this key has used its 100 documents' });
    }
  });

  it('keeps the message of any other error as it is', () => {
    expect(legacyFailure(ApiError.invalid('page_url', 'send page_url or html')).body).toEqual({
      status: 'failed',
      message: 'page_url: send page_url or html',
      type: 'parameters-validation',
    });
  });
});

describe('legacy parameters', () => {
  it('converts page_url to the endpoint’s output, synchronously, with the options mapped', () => {
    const request = legacyRequest(
      { page_url: 'https://example.com/story', page_size: 'A4', css_url: 'https://example.com/a.css', header_text: 'Hi', lang: 'en', dir: 'rtl', title: 'T' },
      'pdf',
    );
    expect(request).toEqual({
      input: { kind: 'url', text: 'https://example.com/story' },
      output: 'pdf',
      async: false,
      webhookUrl: null,
      options: {
        title: 'T',
        source_url: null,
        page_size: 'a4',
        css_url: 'https://example.com/a.css',
        header_text: 'Hi',
        header_image_url: null,
        lang: 'en',
        dir: 'rtl',
        include_links: false,
      },
    });
    expect(legacyRequest({ page_url: 'https://example.com/', page_size: 'Letter' }, 'text').options.page_size).toBe('letter');
  });

  it('converts the html when both are sent, with page_url as where it came from', () => {
    const request = legacyRequest({ page_url: 'https://example.com/story', html: '<p>hi</p>' }, 'html');
    expect(request.input).toEqual({ kind: 'html', text: '<p>hi</p>' });
    expect(request.options.source_url).toBe('https://example.com/story');
  });

  it('refuses a request without page_url or html, and a page size other than Letter or A4', () => {
    expect(() => legacyRequest({}, 'pdf')).toThrow(/page_url: send page_url or html/);
    expect(() => legacyRequest({ html: 'x', page_size: 'legal' }, 'pdf')).toThrow(/page_size/);
  });

  it('refuses every parameter of /v2/convert that the legacy endpoints do not take, naming each', () => {
    const sent = { html: '<p>x</p>', async: false, mode: 'sync', webhook_url: 'https://example.com/hook', output: 'pdf', markdown: '# x' };
    const error = (() => {
      try {
        legacyRequest(sent, 'pdf');
      } catch (e) {
        return e as ApiError;
      }
      throw new Error('not refused');
    })();
    expect(error.code).toBe('invalid_parameters');
    expect(error.extra.errors?.map((p) => p.parameter)).toEqual([...REFUSED_PARAMETERS]);
  });
});
