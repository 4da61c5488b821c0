// A typed, versioned storage item. Every read crosses a trust boundary (another version of the
// extension, a corrupted profile, a test), so it is migrated and then parsed with zod.
import { browser } from 'wxt/browser';
import { type core, parse, safeParse } from 'zod/mini';

export type StorageAreaName = 'local' | 'session';

/** Migrations keyed by the version they produce: `{ 2: (v1) => v2, 3: (v2) => v3 }`. */
export type Migrations = Record<number, (previous: unknown) => unknown>;

export interface StorageItemDefinition<T> {
  area: StorageAreaName;
  key: string;
  version: number;
  /** Either zod API (classic or mini): both are core schemas. */
  schema: core.$ZodType<T>;
  fallback: () => T;
  migrations?: Migrations;
}

/** What is written: the value with the version of its shape. */
interface Envelope {
  v: number;
  data: unknown;
}

export type ReadResult<T> =
  | { ok: true; value: T; found: boolean }
  | { ok: false; error: StorageReadError; stored: unknown };

export class StorageReadError extends Error {
  constructor(
    readonly key: string,
    readonly reason: 'invalid' | 'newer-version' | 'migration-failed',
    detail: string,
  ) {
    super(`Stored ${key} could not be read (${reason}): ${detail}`);
    this.name = 'StorageReadError';
  }
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'v' in value && 'data' in value;
}

function areaOf(name: StorageAreaName) {
  return name === 'local' ? browser.storage.local : browser.storage.session;
}

export interface StorageItem<T> {
  readonly key: string;
  readonly area: StorageAreaName;
  /** Reads, migrates and validates; never throws for bad data, and never overwrites it. */
  read(): Promise<ReadResult<T>>;
  /** Like read, but an unreadable value yields the fallback (for caches and preferences). */
  get(): Promise<T>;
  set(value: T): Promise<void>;
  remove(): Promise<void>;
  /** Parses a raw stored value as it arrives through `storage.onChanged`. */
  parseChange(raw: unknown): T | undefined;
}

export function defineStorageItem<T>(definition: StorageItemDefinition<T>): StorageItem<T> {
  const { key, version, schema, fallback, migrations = {} } = definition;

  function migrate(
    raw: unknown,
  ): { ok: true; data: unknown; migrated: boolean } | { ok: false; error: StorageReadError } {
    // Values written before versioning existed are version 1 by definition.
    let current = isEnvelope(raw) ? raw : { v: 1, data: raw };
    if (current.v > version) {
      return {
        ok: false,
        error: new StorageReadError(key, 'newer-version', `stored v${current.v}, code knows v${version}`),
      };
    }
    const migrated = current.v < version;
    while (current.v < version) {
      const step = migrations[current.v + 1];
      if (!step) {
        return {
          ok: false,
          error: new StorageReadError(key, 'migration-failed', `no migration to v${current.v + 1}`),
        };
      }
      try {
        current = { v: current.v + 1, data: step(current.data) };
      } catch (error) {
        return { ok: false, error: new StorageReadError(key, 'migration-failed', String(error)) };
      }
    }
    return { ok: true, data: current.data, migrated };
  }

  const item: StorageItem<T> = {
    key,
    area: definition.area,
    async read() {
      const stored = (await areaOf(definition.area).get(key))[key];
      if (stored === undefined) return { ok: true, value: fallback(), found: false };
      const migrated = migrate(stored);
      if (!migrated.ok) return { ok: false, error: migrated.error, stored };
      const parsed = safeParse(schema, migrated.data);
      if (!parsed.success) {
        return {
          ok: false,
          error: new StorageReadError(key, 'invalid', parsed.error.issues[0]?.message ?? 'invalid'),
          stored,
        };
      }
      if (migrated.migrated) await item.set(parsed.data);
      return { ok: true, value: parsed.data, found: true };
    },
    async get() {
      const result = await item.read();
      return result.ok ? result.value : fallback();
    },
    async set(value) {
      const envelope: Envelope = { v: version, data: parse(schema, value) };
      await areaOf(definition.area).set({ [key]: envelope });
    },
    async remove() {
      await areaOf(definition.area).remove(key);
    },
    parseChange(raw) {
      if (raw === undefined) return undefined;
      const migrated = migrate(raw);
      if (!migrated.ok) return undefined;
      const parsed = safeParse(schema, migrated.data);
      return parsed.success ? parsed.data : undefined;
    },
  };
  return item;
}

/**
 * The item, remembered in memory after its first read: for items only this context writes (the
 * worker's vault and wallet session), which every popup open read three or four times through the
 * browser process. Writes go to storage first and are remembered once stored; a new worker (or a
 * new caller of this function) reads storage again. Schemas of such items must not transform.
 */
export function remembered<T>(item: StorageItem<T>): StorageItem<T> {
  let known: Promise<ReadResult<T>> | null = null;
  const read = (): Promise<ReadResult<T>> => {
    if (known) return known;
    const reading = item.read();
    // A failed read is not remembered. A write while it is on its way replaces it (see set).
    reading.catch(() => {
      if (known === reading) known = null;
    });
    known = reading;
    return reading;
  };
  return {
    key: item.key,
    area: item.area,
    read,
    async get() {
      const result = await read();
      return result.ok ? result.value : item.get();
    },
    async set(value) {
      known = null;
      await item.set(value);
      known = Promise.resolve({ ok: true, value, found: true });
    },
    async remove() {
      known = null;
      await item.remove();
    },
    parseChange: (raw) => item.parseChange(raw),
  };
}
