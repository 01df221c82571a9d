/** `seahaven publish [world] --space owner/name`: write a Hugging Face Space that serves the world, and upload it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.ts';
import { loadWorld, resolveWorldModule } from '../load-world.ts';
import { SPACE_ID, SpaceError, writeSpace } from '../../publish/space.ts';
import { checkToken, DEFAULT_HUB_URL, UploadError, uploadSpace } from '../../publish/upload.ts';

interface PublishFlags {
  space?: string;
  private?: boolean;
  token?: string;
  dryRun?: boolean;
  out?: string;
  kit?: string;
}

export function registerPublish(program: Command): void {
  program
    .command('publish')
    .description(
      'publish a world as a Hugging Face Space (Docker SDK, tagged openenv) that serves it over OpenEnv',
    )
    .argument('[world]', 'an example world name or a module path (default: ./world.ts, else crm)')
    .requiredOption('--space <owner/name>', 'the Space to create or update, like my-user/crm-world')
    .option('--private', 'create the Space private (an existing Space keeps its visibility)')
    .option('--token <token>', 'a Hugging Face token with write access (default: $HF_TOKEN)')
    .option('--dry-run', 'write the Space folder (--out) without uploading it')
    .option(
      '--out <dir>',
      'write the Space folder here (a new or empty folder); needed with --dry-run',
    )
    .option(
      '--kit <spec>',
      "the Space's seahaven dependency: a registry version, a kit folder or a tarball (default: this kit's registry version, else this kit packed into the Space)",
    )
    .action(async (ref: string | undefined, flags: PublishFlags) => {
      const space = flags.space!;
      if (!SPACE_ID.test(space))
        throw new CliError(
          `--space ${space}: give the Space as owner/name, like my-user/crm-world (letters, digits, -, _ and .)`,
          2,
        );
      if (flags.dryRun && flags.out === undefined)
        throw new CliError(
          '--dry-run writes the Space folder without uploading it; say where with --out <dir>',
          2,
        );
      const token = flags.token ?? (process.env.HF_TOKEN || undefined);
      // Before anything is packed: a missing or malformed token fails at once.
      if (!flags.dryRun) {
        try {
          checkToken(token);
        } catch (e) {
          throw new CliError((e as Error).message, 2);
        }
      }
      const module = resolveWorldModule(ref);
      const world = await loadWorld(ref);
      const dir = flags.out ?? mkdtempSync(join(tmpdir(), 'seahaven-space-'));
      try {
        let folder: Awaited<ReturnType<typeof writeSpace>>;
        try {
          folder = await writeSpace(dir, {
            world,
            module,
            space,
            kit: flags.kit,
            onProgress: (line) => process.stdout.write(`${line}\n`),
          });
        } catch (e) {
          if (e instanceof SpaceError) throw new CliError(e.message, 2);
          throw e;
        }
        const where =
          flags.out === undefined ? folder.dir : relative(process.cwd(), folder.dir) || '.';
        process.stdout.write(
          `Wrote the Space for ${world.name} ${world.version} in ${where}: ${folder.files.join(', ')}\n`,
        );
        if (flags.dryRun) {
          process.stdout.write(
            `\nNot uploaded (--dry-run). The container runs: ${folder.command.join(' ')}\n` +
              `Try it here: cd ${where} && npm install --omit=dev && PORT=8000 ${folder.command.map((a, i) => (i === 2 ? `'${a}'` : a)).join(' ')}\n` +
              `or: docker build -t ${world.name}-space ${where} && docker run -p 8000:8000 ${world.name}-space\n`,
          );
          return;
        }
        const hubUrl = process.env.HF_ENDPOINT || DEFAULT_HUB_URL;
        let uploaded: Awaited<ReturnType<typeof uploadSpace>>;
        try {
          uploaded = await uploadSpace({
            dir: folder.dir,
            space,
            token: token!,
            private: flags.private,
            hubUrl,
            title: `Publish ${world.name} ${world.version}`,
          });
        } catch (e) {
          if (e instanceof UploadError) throw new CliError(e.message);
          throw e;
        }
        process.stdout.write(
          `${uploaded.created ? 'Created' : 'Updated'} the Space ${space}: ${uploaded.files.length} files in commit ${uploaded.commit}\n` +
            `  page:    ${uploaded.url}\n` +
            `  OpenEnv: ${folder.appUrl} (once the Space has built; its WebSocket is ${folder.appUrl.replace(/^https/, 'wss')}/ws)\n`,
        );
      } finally {
        if (flags.out === undefined) rmSync(dir, { recursive: true, force: true });
      }
    });
}
