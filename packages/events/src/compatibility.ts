/**
 * The compatibility rule every event subject is held to. Each version of an event type has a subject of its own and
 * never changes once released (a change of shape is a new version plus an upcaster: docs/schema-evolution.md);
 * FULL_TRANSITIVE on the subject makes the registry refuse any edit of a released version that an event already
 * written, or a reader already running, could not live with: a removed, renamed or retyped field, a new field
 * without a default.
 */
export const SUBJECT_COMPATIBILITY = 'FULL_TRANSITIVE';

/**
 * Sets a subject's compatibility rule (the Confluent API's `PUT /config/{subject}`, which Apicurio's ccompat API
 * serves), so the rule is in force whatever the registry's global default is.
 */
export async function enforceCompatibility(registryUrl: string, subject: string, level = SUBJECT_COMPATIBILITY): Promise<void> {
  const url = `${registryUrl.replace(/\/$/, '')}/config/${encodeURIComponent(subject)}`;
  const response = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: level }),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.ok) return;
  const refusal = `${response.status} ${await response.text()}`;
  // Two processes registering a new subject at once both set its rule; Apicurio answers the second 409 ("A rule
  // named 'COMPATIBILITY' already exists") instead of updating. The rule the first one set is the one wanted here.
  if (response.status === 409 && (await compatibilityOf(url)) === level) return;
  throw new Error(`registry: setting ${level} on ${subject} failed: ${refusal}`);
}

/** A subject's own compatibility rule (`GET /config/{subject}`), or undefined when it has none or cannot be read. */
async function compatibilityOf(url: string): Promise<string | undefined> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) return undefined;
  const body = (await response.json()) as { compatibilityLevel?: string; compatibility?: string };
  return body.compatibilityLevel ?? body.compatibility;
}
