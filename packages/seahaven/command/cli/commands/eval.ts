/**
 * `seahaven eval <world> --model <name> --base-url <url>`: run a model over a world's tasks × seeds × trials and
 * report pass^k (packages/seahaven/command/eval/). `--compare a/ b/` puts two runs side by side; `--serve DIR` serves a run's report with
 * each episode replayable as a live console session. `seahaven collect` plays the same way and writes the episodes
 * as a training dataset.
 */
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld } from '../load-world.ts';
import type { RunFlags } from '../../eval/options.ts';

/** Options both commands take. */
export function runOptions(cmd: Command): Command {
  return cmd
    .option('--model <name>', 'the model, as the server names it (like qwen2.5:7b, gpt-4.1-mini)')
    .option(
      '--base-url <url>',
      'an OpenAI-compatible API (vLLM, Ollama, llama.cpp, OpenAI), like http://127.0.0.1:11434/v1',
    )
    .option(
      '--api-key <key>',
      'the model server\'s key (default: $OPENAI_API_KEY; "none" for a server that takes none)',
    )
    .option(
      '--url <url>',
      'play the episodes on this served world (seahaven serve) instead of in this process',
    )
    .option('--token <token>', "the served world's token, with --url (default: $SEAHAVEN_TOKEN)")
    .option(
      '--grader-token <secret>',
      "the served world's grader token (seahaven serve --grader-token), with --url: whole grades and change logs come from the server instead of a replay here (default: $SEAHAVEN_GRADER_TOKEN)",
    )
    .option('--tasks <ids>', 'the tasks, comma-separated (default: all)')
    .option(
      '--split <name>',
      'instead of --tasks: all, tag:<tag>, a curriculum, or <curriculum>:<stage>',
    )
    .option('--seeds <list>', 'episode seeds, like 0,1,2 or 0-4 (default 0)')
    .option(
      '--trials <k>',
      'trials per task and seed (default 1); pass^k is reported for k up to seeds × trials',
    )
    .option('--max-turns <n>', 'model turns per episode before it is submitted (default 20)')
    .option(
      '--max-tokens <n>',
      'completion tokens per episode over all its turns (default: no limit)',
    )
    .option('--temperature <t>', "sampling temperature sent to the model (default: the server's)")
    .option('--concurrency <n>', 'episodes at a time, one session each (default 4)')
    .option(
      '--retries <n>',
      'retries of a transient model error (connection, 429, 5xx), with backoff (default 4)',
    )
    .option(
      '--retry-backoff <ms>',
      'milliseconds before the first retry, doubled on each retry after it (default 500)',
    )
    .option(
      '--out <dir>',
      'the run folder; an interrupted run resumes from it (default ./eval-out)',
    );
}

/** Progress on stderr: one line rewritten in place on a terminal, a line per episode otherwise. */
export function progressWriter(): (line: string, final: boolean) => void {
  const tty = process.stderr.isTTY;
  return (line, final) => {
    if (tty) process.stderr.write(`\r\x1b[K${line}${final ? '\n' : ''}`);
    else process.stderr.write(`${line}\n`);
  };
}

/** Errors of the runner as one line (exit 2 for options, 1 for the rest). */
export async function asCliErrors<T>(fn: () => Promise<T>): Promise<T> {
  const { OptionError } = await import('../../eval/options.ts');
  const { RunFolderError } = await import('../../eval/store.ts');
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CliError) throw e;
    if (e instanceof OptionError) throw new CliError(e.message, 2);
    if (e instanceof RunFolderError) throw new CliError(e.message, 2);
    throw new CliError((e as Error)?.message ?? String(e), 1);
  }
}

interface EvalFlags extends RunFlags {
  compare?: string[];
  serve?: string;
  port?: string;
  host?: string;
}

export function registerEval(program: Command): void {
  runOptions(
    program
      .command('eval')
      .description(
        "run a model (any OpenAI-compatible server) over a world's tasks and report pass^k: DIR/eval.json and DIR/report.html",
      )
      .argument(
        '[world]',
        'an example world name or a module path (default: ./world.ts, else crm)',
      ),
  )
    .option(
      '--compare <dirs...>',
      'compare two run folders side by side (the tasks whose outcome changed)',
    )
    .option(
      '--serve <dir>',
      "serve a run folder's report, each episode replayable up to any step as a live console session",
    )
    .option('--port <port>', 'with --serve: the port (default 8000; 0 picks one)')
    .option('--host <host>', 'with --serve: the address (default 127.0.0.1)')
    .action(async (ref: string | undefined, flags: EvalFlags) => {
      await asCliErrors(async () => {
        if (flags.compare !== undefined) {
          const { compareRuns, formatComparison } = await import('../../eval/compare.ts');
          if (flags.compare.length !== 2)
            throw new CliError(
              `--compare takes two run folders, like --compare runs/a runs/b; got ${flags.compare.length}`,
              2,
            );
          process.stdout.write(formatComparison(compareRuns(flags.compare[0], flags.compare[1])));
          return;
        }
        if (flags.serve !== undefined) {
          const { serveRun } = await import('../../eval/serve-run.ts');
          const { readSettings } = await import('../../eval/store.ts');
          const settings = readSettings(flags.serve);
          const world = await loadWorld(ref ?? settings.world.name);
          const port = flags.port === undefined ? 8000 : Number(flags.port);
          if (!Number.isInteger(port) || port < 0 || port > 65535)
            throw new CliError(`--port ${flags.port}: give a port from 0 to 65535`, 2);
          const server = await serveRun(flags.serve, world, {
            port,
            host: flags.host ?? '127.0.0.1',
          });
          process.stdout.write(
            `serving ${flags.serve}: open ${server.url}/eval/report.html (each step's link opens it live in the console); Ctrl-C stops\n`,
          );
          await new Promise<void>((resolve) => {
            const stop = () => void server.close().then(resolve);
            process.once('SIGINT', stop);
            process.once('SIGTERM', stop);
          });
          return;
        }
        const world = await loadWorld(ref);
        const { play, summaryLines } = await import('../../eval/command.ts');
        const out = flags.out ?? 'eval-out';
        const played = await play(
          world,
          { ...flags, out },
          { env: process.env, progress: progressWriter() },
        );
        process.stdout.write(summaryLines(played, out).join('\n') + '\n');
      });
    });
}

interface CollectFlags extends RunFlags {
  minReward?: string;
  pushToHub?: string;
  hfToken?: string;
  private?: boolean;
}

export function registerCollect(program: Command): void {
  runOptions(
    program
      .command('collect')
      .description(
        "play a model over a world's tasks as eval does and write the episodes as DIR/results.jsonl (OpenEnv's collect format), optionally pushed to a Hugging Face dataset",
      )
      .argument(
        '[world]',
        'an example world name or a module path (default: ./world.ts, else crm)',
      ),
  )
    .option('--min-reward <r>', 'keep only episodes with at least this reward (default: all)')
    .option(
      '--push-to-hub <owner/name>',
      'upload results.jsonl, metadata.json and a dataset card to this Hugging Face dataset',
    )
    .option('--hf-token <token>', 'a Hugging Face write token (default: $HF_TOKEN)')
    .option('--private', 'with --push-to-hub: create the dataset private')
    .action(async (ref: string | undefined, flags: CollectFlags) => {
      await asCliErrors(async () => {
        let minReward: number | undefined;
        if (flags.minReward !== undefined) {
          minReward = Number(flags.minReward);
          if (flags.minReward.trim() === '' || !Number.isFinite(minReward))
            throw new CliError(`--min-reward ${flags.minReward}: give a number, like 1 or 0.5`, 2);
        }
        const hfToken = flags.hfToken ?? (process.env.HF_TOKEN || undefined);
        if (flags.pushToHub !== undefined && hfToken === undefined)
          throw new CliError(
            '--push-to-hub needs a Hugging Face write token: pass --hf-token or set HF_TOKEN',
            2,
          );
        const world = await loadWorld(ref);
        const { play, summaryLines } = await import('../../eval/command.ts');
        const { writeCollection, pushCollection, PushError } =
          await import('../../eval/collect.ts');
        const { readEpisodes } = await import('../../eval/store.ts');
        const out = flags.out ?? 'eval-out';
        const played = await play(
          world,
          { ...flags, out },
          { env: process.env, progress: progressWriter() },
        );
        process.stdout.write(summaryLines(played, out).join('\n') + '\n');
        const planned = new Set(played.summary.tasks.flatMap((t) => t.episodes));
        const kept = writeCollection(
          out,
          world,
          played.settings,
          readEpisodes(out).filter((r) => planned.has(r.episode_id)),
          minReward,
        );
        process.stdout.write(
          `wrote ${out}/results.jsonl: ${kept.kept} episodes${minReward === undefined ? '' : ` with reward ≥ ${minReward} (${kept.dropped} left out)`}, with metadata.json and README.md\n`,
        );
        if (flags.pushToHub === undefined) return;
        try {
          const pushed = await pushCollection(out, flags.pushToHub, {
            token: hfToken,
            hubUrl: process.env.HF_ENDPOINT || 'https://huggingface.co',
            private: flags.private,
            title: `${played.settings.model} on ${world.name} ${world.version}: ${kept.kept} episodes`,
          });
          process.stdout.write(
            `${pushed.created ? 'Created' : 'Updated'} the dataset ${flags.pushToHub} (commit ${pushed.commit}): ${pushed.url}\n`,
          );
        } catch (e) {
          if (e instanceof PushError) throw new CliError(e.message);
          throw e;
        }
      });
    });
}
