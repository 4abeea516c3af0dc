/**
 * One NSU sequence of the Sefaz simulator (docs/sefaz-simulator.md): a UF's NF-e stream or its CT-e
 * stream. Each keeps, in its own folder, the few facts that make its documents reproducible:
 *
 *   state.json  the seed, the highest NSU, the NSUs that are not plain generated documents (dropped
 *               files, spoiled ones) and the clock segments of the generated ones
 *   inbox/      XML files placed here are served, byte-identical, as the stream's next NSUs
 *   served/     where they go afterwards, as `<NSU>-<original name>`
 *
 * The NF-e stream lives in `<dataDir>/sefaz/<UF>/`, the CT-e stream in `<dataDir>/sefaz/<UF>/cte/`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nsu15 } from '@plac/shared/domain';

export type { Fluxo } from '@plac/shared/domain';

export type Special = { drop: string } | { spoil: 'malformed' | 'schema' };

/** From generated index `fromIndex` on, document i is issued at atMs + (i - fromIndex) × spacingMs. */
export interface ClockSegment {
  fromIndex: number;
  atMs: number;
  spacingMs: number;
}

export interface StreamState {
  seed: number;
  maxNsu: number;
  /** By NSU: the documents that are not plain generated ones. */
  special: Record<string, Special>;
  /**
   * When the generated documents were issued: the backlog ends at the stream's first start, later ones
   * when they were added. States written before the clock existed have none (fixed 2026-09 dates).
   */
  clock?: ClockSegment[];
}

/** The simulator writes NSUs as the platform reads them (shared rule). */
export const padNsu = (nsu: number) => nsu15(nsu);

export interface Stream {
  readonly inbox: string;
  readonly served: string;
  readonly state: StreamState;
  /** Created by this start (no stored state was found). */
  readonly fresh: boolean;
  save(): void;
  /** Generated-sequence index of an NSU: its position among the NSUs that are not dropped files. */
  generatedIndex(nsu: number): number;
  /** Moves the inbox's XML files (by name) into the sequence as its next NSUs. */
  takeInbox(): void;
  /** Appends `count` generated documents issued now, one call standing for `periodMs`. */
  add(count: number, periodMs: number): void;
  /** Appends one spoiled document (the simulator's one-shot faults). */
  spoil(kind: 'malformed' | 'schema'): void;
  /** The issue slot of generated document `index`, from the stored clock (none for old states). */
  clock(): ((index: number) => { atMs: number; spacingMs: number }) | undefined;
}

/**
 * Opens the stream kept in `base`, creating it on its first start: `backlog` documents `spacingMs`
 * apart, the last one issued `stalledMs` before now.
 */
export function openStream(base: string, first: { seed: number; backlog: number; spacingMs: number; stalledMs: number }): Stream {
  const inbox = join(base, 'inbox');
  const served = join(base, 'served');
  for (const dir of [base, inbox, served]) mkdirSync(dir, { recursive: true });
  const file = join(base, 'state.json');

  const save = () => {
    // Written aside and renamed, so a crash never leaves half a state behind.
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  };

  const fresh = !existsSync(file);
  const state: StreamState = fresh
    ? {
        seed: first.seed,
        maxNsu: first.backlog,
        special: {},
        clock: [{ fromIndex: 0, atMs: Date.now() - first.stalledMs - first.backlog * first.spacingMs, spacingMs: first.spacingMs }],
      }
    : (JSON.parse(readFileSync(file, 'utf8')) as StreamState);
  if (fresh) save();

  const generatedIndex = (nsu: number) => {
    let drops = 0;
    for (const [key, special] of Object.entries(state.special)) if ('drop' in special && Number(key) < nsu) drops++;
    return nsu - 1 - drops;
  };

  return {
    inbox,
    served,
    state,
    fresh,
    save,
    generatedIndex,
    takeInbox: () => {
      // The data folder may be gone (a test run's teardown removes it while the twin stops): nothing to take.
      if (!existsSync(inbox)) return;
      const names = readdirSync(inbox).filter((n) => n.toLowerCase().endsWith('.xml')).sort();
      if (names.length === 0) return;
      for (const name of names) {
        const nsu = state.maxNsu + 1;
        const servedName = `${padNsu(nsu)}-${name}`;
        renameSync(join(inbox, name), join(served, servedName));
        state.maxNsu = nsu;
        state.special[String(nsu)] = { drop: servedName };
      }
      save();
    },
    add: (count, periodMs) => {
      const last = state.clock?.at(-1);
      if (state.clock && last) {
        // New documents are issued now: a new clock segment when the last one does not put them near now.
        const next = generatedIndex(state.maxNsu + 1);
        const predicted = last.atMs + (next - last.fromIndex) * last.spacingMs;
        const spacingMs = periodMs / Math.max(count, 1);
        if (last.spacingMs !== spacingMs || Math.abs(predicted - Date.now()) > 60_000) state.clock.push({ fromIndex: next, atMs: Date.now(), spacingMs });
      }
      state.maxNsu += count;
      save();
    },
    spoil: (kind) => {
      state.maxNsu += 1;
      state.special[String(state.maxNsu)] = { spoil: kind };
      save();
    },
    clock: () =>
      state.clock
        ? (index: number) => {
            const segment = [...state.clock!].reverse().find((c) => c.fromIndex <= index) ?? state.clock![0]!;
            return { atMs: segment.atMs + (index - segment.fromIndex) * segment.spacingMs, spacingMs: segment.spacingMs };
          }
        : undefined,
  };
}
