/**
 * A run's output folder: `run.json` (the settings every episode was played with), `episodes/<id>.json` (one per
 * finished episode, each written whole to a temporary name and renamed, so an interrupted run leaves only whole
 * files), and the reports made from them. A resumed run reads which episodes are already there and skips them.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from './agent.ts';

/** What decides an episode's outcome, recorded so a run can be repeated, and checked when one is resumed. */
export interface RunSettings {
  format: 'seahaven.eval-run/1';
  world: { name: string; version: string; schema_hash: string };
  /** Fixture id → sha256 of its image, for every fixture the tasks start from. */
  fixtures: Record<string, string | null>;
  model: string;
  base_url: string;
  /** The served world's URL, or null for episodes in this process. */
  url: string | null;
  tasks: string[];
  seeds: number[];
  trials: number;
  max_turns: number;
  max_tokens: number | null;
  temperature: number | null;
}

export class RunFolderError extends Error {}

/** Write a file whole or not at all: to a temporary name beside it, then renamed over it. */
export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function episodesDir(dir: string): string {
  return join(dir, 'episodes');
}

/** Prepare `dir` for a run with `settings`: a new folder, or one holding the same run (resumed). */
export function openRunFolder(dir: string, settings: RunSettings): { resumed: boolean } {
  mkdirSync(episodesDir(dir), { recursive: true });
  const file = join(dir, 'run.json');
  if (existsSync(file)) {
    const before = JSON.parse(readFileSync(file, 'utf8')) as RunSettings;
    const differs = (Object.keys(settings) as (keyof RunSettings)[]).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(settings[k]),
    );
    if (differs.length > 0) {
      throw new RunFolderError(
        `${dir} holds a run with other settings (${differs.map((k) => `${k}: ${JSON.stringify(before[k])} there, ${JSON.stringify(settings[k])} now`).join('; ')}); give the same options to resume it, or another --out`,
      );
    }
    return { resumed: true };
  }
  writeAtomic(file, JSON.stringify(settings, null, 2) + '\n');
  return { resumed: false };
}

export function readSettings(dir: string): RunSettings {
  const file = join(dir, 'run.json');
  if (!existsSync(file))
    throw new RunFolderError(
      `${dir} holds no run (no run.json); give the --out folder of a seahaven eval or collect run`,
    );
  return JSON.parse(readFileSync(file, 'utf8')) as RunSettings;
}

/** The ids of the episodes already recorded in `dir`. */
export function finishedEpisodes(dir: string): Set<string> {
  const d = episodesDir(dir);
  if (!existsSync(d)) return new Set();
  return new Set(
    readdirSync(d)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length)),
  );
}

/**
 * Write an episode's file whole: one write of its JSON text to a temporary name, then renamed. Done in place rather
 * than through the thread pool: a file of a few kilobytes goes to the page cache in microseconds, and the promise
 * API's file handles cost more CPU than the write. Nothing is synced to disk: a resume needs only that a file is there
 * whole or not at all, which the rename gives; after a power loss, episodes the disk had not caught up with are played
 * again.
 */
export function writeEpisode(dir: string, record: EpisodeRecord): void {
  writeAtomic(join(episodesDir(dir), `${record.episode_id}.json`), JSON.stringify(record) + '\n');
}

/** Every recorded episode of `dir`, in the order of task, seed and trial. */
export function readEpisodes(dir: string): EpisodeRecord[] {
  const d = episodesDir(dir);
  if (!existsSync(d)) return [];
  const records = readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(d, f), 'utf8')) as EpisodeRecord);
  return records.sort((a, b) =>
    a.task < b.task ? -1 : a.task > b.task ? 1 : a.seed - b.seed || a.trial - b.trial,
  );
}
