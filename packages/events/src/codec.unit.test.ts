import { describe, expect, it } from 'vitest';
import avro from 'avsc';
import { jobSucceeded } from './factory.ts';
import { plainData } from './codec.ts';
import { schemaOf } from './schemas.ts';

describe('decoded events as plain data', () => {
  it('gives what a JSON round trip of the decoded Avro record gives, with no class instances left', () => {
    const result = { output: 'text' as const, content: 'x'.repeat(1000), content_ref: null, file: null, document: { title: 't', url: null, site: null, author: 'a', date: null, excerpt: null, image: null, word_count: 3 } };
    const type = avro.Type.forSchema(schemaOf('JobSucceeded', 1) as never);
    const decoded = type.fromBuffer(type.toBuffer(jobSucceeded('0190f0f0-0000-7000-8000-000000000001', 2, 'w', result, 12)));
    expect(Object.getPrototypeOf(decoded)).not.toBe(Object.prototype);
    const plain = plainData(decoded) as Record<string, unknown>;
    expect(plain).toEqual(JSON.parse(JSON.stringify(decoded)));
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(plain.result)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(Object.keys(JSON.parse(JSON.stringify(decoded))));
  });
});
