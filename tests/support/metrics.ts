import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Must match infra/bootstrap.mjs, which installs them (`npm test` runs it with --tests). */
const PROMETHEUS_CLIENT_VERSION = '0.23.1';
const CACHE = process.env.FOLIO_CACHE_DIR || join(homedir(), '.cache', 'folio');
const PYTHON = join(CACHE, `prometheus-client-${PROMETHEUS_CLIENT_VERSION}`, 'bin', 'python');
export const PROMLINT = join(CACHE, 'promlint', 'promlint');

export interface Sample {
  name: string;
  labels: Record<string, string>;
  /** A number, or the text of one JSON cannot hold (+Inf, NaN). */
  value: number | string;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

// Prometheus' Python client's own parser of the text format: a stray byte, a bad escape or a sample before its
// TYPE line fails it.
const PARSE = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
out = []
for f in text_string_to_metric_families(sys.stdin.read()):
    out.append({'name': f.name, 'type': f.type, 'help': f.documentation, 'samples': [
        {'name': s.name, 'labels': s.labels, 'value': s.value if math.isfinite(s.value) else str(s.value)} for s in f.samples]})
print(json.dumps(out))
`;

function run(file: string, args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

/** The exposition as Prometheus' Python client parses it; throws with the parser's words when it cannot. */
export async function parseExposition(text: string): Promise<Family[]> {
  const { code, stdout, stderr } = await run(PYTHON, ['-c', PARSE], text);
  if (code !== 0) throw new Error(`the exposition does not parse: ${stderr.trim().split('\n').at(-1)}`);
  return JSON.parse(stdout) as Family[];
}

/** `promtool check metrics`' lint (Prometheus' rules: names, suffixes, units, help) on these families of the exposition. */
export async function lintExposition(text: string, keep: (family: string) => boolean): Promise<{ code: number; problems: string }> {
  const kept: string[] = [];
  let keeping = false;
  for (const line of text.split('\n')) {
    const family = /^# (?:HELP|TYPE) (\S+)/.exec(line)?.[1];
    if (family !== undefined) keeping = keep(family);
    if (keeping && line !== '') kept.push(line);
  }
  const { code, stdout, stderr } = await run(PROMLINT, [], `${kept.join('\n')}\n`);
  return { code, problems: `${stdout}${stderr}`.trim() };
}

export const promlintBuilt = (): boolean => existsSync(PROMLINT);

/** The samples of one name whose labels include these. */
export function samples(families: Family[], name: string, labels: Record<string, string> = {}): Sample[] {
  return families
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the samples of one name whose labels include these (0 when there are none). */
export function total(families: Family[], name: string, labels: Record<string, string> = {}): number {
  return samples(families, name, labels).reduce((sum, s) => sum + (typeof s.value === 'number' ? s.value : 0), 0);
}
