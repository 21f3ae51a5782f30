import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { enforceCompatibility, SUBJECT_COMPATIBILITY } from './compatibility.ts';
import { schemaOf } from './schemas.ts';
import { topicOf, type Topics } from './topics.ts';
import type { JobEvent, JobEventType } from './types.ts';
import { upcast } from './upcast.ts';

/**
 * Events on the wire: Avro in the Confluent wire format (magic byte, schema id, body), schemas held by a
 * Confluent-compatible registry. Decoding uses the writer's schema (found by the id in the message), then upcasts,
 * so an event written by any earlier release still decodes.
 */
export class EventCodec {
  private readonly registry: SchemaRegistry;
  private readonly ids = new Map<string, Promise<number>>();

  private readonly registryUrl: string;
  private readonly topics: Topics;
  constructor(
    registryUrl: string,
    topics: Topics,
  ) {
    this.registryUrl = registryUrl;
    this.topics = topics;
    this.registry = new SchemaRegistry({ host: registryUrl, clientId: 'folio' });
  }

  /** The subject an event version is registered under. */
  static subject(topic: string, type: JobEventType, version: number): string {
    return `${topic}-dev.folio.events.${type}.v${version}`;
  }

  /** Registers (idempotently) the schema of an event version on a topic, holds its subject to FULL_TRANSITIVE, and returns its id. */
  schemaId(topic: string, type: JobEventType, version: number): Promise<number> {
    const subject = EventCodec.subject(topic, type, version);
    let id = this.ids.get(subject);
    if (!id) {
      const schema = { type: 'AVRO' as never, schema: JSON.stringify(schemaOf(type, version)) };
      // The client sets the rule on a subject's first registration and checks it on every later one.
      const register = () => this.registry.register(schema, { subject, compatibility: SUBJECT_COMPATIBILITY as never });
      id = register()
        .catch(async (error: unknown) => {
          // A subject registered before Folio held subjects to the rule: a compatibility error. A process racing this
          // one to register a new subject set the rule first: the registry answered the client's own rule-setting 409.
          const raced = (error as { status?: number }).status === 409;
          if ((error as Error).name !== 'ConfluentSchemaRegistryCompatibilityError' && !raced) throw error;
          // Either way: hold the subject to the rule now (a no-op when it is), and register again.
          await enforceCompatibility(this.registryUrl, subject);
          return register();
        })
        .then((r) => r.id);
      id.catch(() => this.ids.delete(subject));
      this.ids.set(subject, id);
    }
    return id;
  }

  async encode(event: JobEvent, topic = topicOf(event, this.topics)): Promise<Buffer> {
    return this.encodeAs(topic, event.type, event.version, event);
  }

  /** Encodes any payload under a given event version: the current writers use `encode`; fixtures of old versions use this. */
  async encodeAs(topic: string, type: JobEventType, version: number, payload: object): Promise<Buffer> {
    const id = await this.schemaId(topic, type, version);
    return this.registry.encode(id, payload);
  }

  async decode(buffer: Buffer): Promise<JobEvent> {
    return upcast(plainData(await this.registry.decode(buffer)) as Record<string, unknown>);
  }
}

/**
 * A decoded Avro value as plain data: records decode as instances of generated classes, and events are plain objects.
 * What a JSON round trip would give (own fields, nested, in order), without writing the value out as text and reading
 * it back: an event carries up to 64 KB of text, and every consumer decodes every event.
 */
export function plainData(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainData);
  const plain: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined && typeof field !== 'function') plain[key] = plainData(field);
  return plain;
}
