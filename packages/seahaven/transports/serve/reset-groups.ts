/**
 * Reset groups: GRPO scores a group of rollouts of one prompt against each other, so its `num_generations` resets must
 * play one task. A curriculum reset with `{group, group_size}` draws as usual when its group is new; the next
 * `group_size - 1` resets with the same group key get the same task and seed without drawing (a repeat of the first
 * episode, with a ticket of its own, so every member's submit is recorded). The group then expires: a further reset
 * with the key starts a new group with a new draw.
 *
 * Groups live in the server's memory, bounded: a group is dropped once full, when unused for `ttlMs`, or (the oldest
 * first) when more than `maxGroups` are open.
 */
import type { IssuedEpisode } from '../../libraries/curricula/runs.ts';
import { ResetError } from './errors.ts';

type MaybePromise<T> = T | Promise<T>;

interface Group {
  /** The first member's episode (a promise while its draw is in flight). */
  readonly first: Promise<IssuedEpisode>;
  readonly seed: number | undefined;
  readonly size: number;
  /** Members so far, the first included. */
  members: number;
  touched: number;
}

/** A member's episode and its place in the group. */
export interface GroupMember {
  episode: IssuedEpisode;
  /** The seed every member plays (the first reset's). */
  seed: number | undefined;
  /** 0 for the member that drew. */
  member: number;
  size: number;
}

export interface ResetGroupsOptions {
  /** A group unused this long is dropped. Default 10 minutes. */
  ttlMs?: number;
  /** Most groups kept at once. Default 100 000. */
  maxGroups?: number;
  /** Monotonic milliseconds. Default `performance.now`. */
  now?: () => number;
}

export class ResetGroups {
  private readonly groups = new Map<string, Group>();
  private readonly ttlMs: number;
  private readonly maxGroups: number;
  private readonly now: () => number;

  constructor(options: ResetGroupsOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.maxGroups = options.maxGroups ?? 100_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Groups open now. */
  get size(): number {
    return this.groups.size;
  }

  /**
   * The episode of one member of group `key`: `draw()` for the first, `repeat(first ticket)` for the others.
   * Refuses a `size` other than the group's own.
   */
  join(
    key: string,
    size: number,
    seed: number | undefined,
    draw: () => MaybePromise<IssuedEpisode>,
    repeat: (ticket: string) => MaybePromise<IssuedEpisode>,
  ): MaybePromise<GroupMember> {
    const now = this.now();
    this.expire(now);
    const open = this.groups.get(key);
    if (open === undefined) {
      const episode = draw();
      if (size > 1) {
        const first = Promise.resolve(episode);
        // A failed draw leaves no group behind: the next reset with the key draws again.
        first.catch(() => this.groups.get(key)?.first === first && this.groups.delete(key));
        this.groups.set(key, { first, seed, size, members: 1, touched: now });
        this.bound();
      }
      const first = (e: IssuedEpisode): GroupMember => ({ episode: e, seed, member: 0, size });
      return episode instanceof Promise ? episode.then(first) : first(episode);
    }
    if (size !== open.size)
      throw new ResetError(
        'group_size',
        `group ${JSON.stringify(key.split('\u0000').at(-1))} has group_size ${open.size}; send the same group_size to every member, or use a new group key`,
      );
    const member = open.members++;
    open.touched = now;
    // Moved to the end, so the map stays in order of last use for `expire`.
    this.groups.delete(key);
    if (open.members < open.size) this.groups.set(key, open);
    return open.first.then(async (e) => ({
      episode: await repeat(e.ticket),
      seed: open.seed,
      member,
      size: open.size,
    }));
  }

  private expire(now: number): void {
    // Groups are kept in order of last use (`join` moves a group it touches to the end): the stalest come first.
    for (const [key, g] of this.groups) {
      if (now - g.touched < this.ttlMs) break;
      this.groups.delete(key);
    }
  }

  private bound(): void {
    while (this.groups.size > this.maxGroups) this.groups.delete(this.groups.keys().next().value!);
  }
}
