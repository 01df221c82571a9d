/**
 * Upload a Space folder to the Hugging Face hub with `@huggingface/hub`: create the Space (Docker SDK) if it does not
 * exist, then put every file in one commit, so a failure leaves the Space as it was. Failures become one-line
 * `UploadError`s that name the fix (`--token` or `HF_TOKEN` for a missing or refused token).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles } from './space.ts';

/** The hub the upload goes to unless `HF_ENDPOINT` names another. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

/** An upload that did not happen; `message` is one line. */
export class UploadError extends Error {
  override name = 'UploadError';
}

export interface UploadOptions {
  /** The Space folder (what `writeSpace` wrote). */
  dir: string;
  /** `owner/name`. */
  space: string;
  /** A Hugging Face token with write access (`hf_…`). */
  token: string;
  /** Create the Space private. An existing Space keeps its visibility. */
  private?: boolean;
  /** The commit's title. */
  title: string;
  /** The hub's base URL. Default: `https://huggingface.co`. */
  hubUrl?: string;
}

export interface UploadResult {
  /** The Space's page on the hub. */
  url: string;
  /** The commit that holds the files. */
  commit: string;
  /** Whether the Space was created by this upload. */
  created: boolean;
  files: string[];
}

interface HubError extends Error {
  statusCode?: number;
}

const TOKEN_HINT =
  'pass a Hugging Face write token with --token or set HF_TOKEN (make one at https://huggingface.co/settings/tokens)';

/** The hub's own message, on one line, without the trailer the library appends (URL, request id). */
function hubMessage(e: HubError): string {
  return e.message
    .replace(/\. URL: [\s\S]*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function failure(e: unknown, space: string, hubUrl: string): UploadError {
  const err = e as HubError;
  const status = err.statusCode;
  if (status === 401)
    return new UploadError(
      `${hubUrl} rejected the token (HTTP 401: ${hubMessage(err)}); ${TOKEN_HINT}`,
    );
  if (status === 403)
    return new UploadError(
      `${hubUrl} refused to write to the Space ${space} (HTTP 403: ${hubMessage(err)}); use a token with write access to it: --token or HF_TOKEN`,
    );
  if (status !== undefined)
    return new UploadError(
      `uploading the Space ${space} to ${hubUrl} failed (HTTP ${status}: ${hubMessage(err)}); nothing was committed, so run the same command again`,
    );
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? err.message;
  return new UploadError(
    `could not reach ${hubUrl} (${String(detail).replace(/\s+/g, ' ')}); check the network (or HF_ENDPOINT), then run the same command again`,
  );
}

/**
 * Refuse a token the hub cannot take before anything is packed or sent.
 * @example
 * checkToken(process.env.HF_TOKEN);
 */
export function checkToken(token: string | undefined): asserts token is string {
  if (token === undefined || token === '')
    throw new UploadError(`no Hugging Face token: ${TOKEN_HINT}`);
  if (!token.startsWith('hf_'))
    throw new UploadError(`the Hugging Face token does not start with hf_; ${TOKEN_HINT}`);
}

/**
 * Create the Space if needed and commit the folder's files to it, all in one commit.
 * @example
 * const { url } = await uploadSpace({ dir: '/tmp/crm-space', space: 'me/crm', token: process.env.HF_TOKEN!, title: 'Publish crm 1.0.0' });
 */
export async function uploadSpace(options: UploadOptions): Promise<UploadResult> {
  checkToken(options.token);
  const hubUrl = (options.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, '');
  const { createRepo, uploadFiles } = await import('@huggingface/hub');
  const repo = { type: 'space' as const, name: options.space };
  let created = true;
  try {
    await createRepo({
      repo,
      accessToken: options.token,
      sdk: 'docker',
      hubUrl,
      ...(options.private ? { visibility: 'private' as const } : {}),
    });
  } catch (e) {
    // 409: the Space exists already; the commit below updates it.
    if ((e as HubError).statusCode !== 409) throw failure(e, options.space, hubUrl);
    created = false;
  }
  const files = listFiles(options.dir);
  let commit: string;
  try {
    const out = await uploadFiles({
      repo,
      accessToken: options.token,
      hubUrl,
      commitTitle: options.title,
      files: files.map((path) => ({
        path,
        content: new Blob([readFileSync(join(options.dir, path))]),
      })),
    });
    commit = out?.commit.oid ?? '';
  } catch (e) {
    throw failure(e, options.space, hubUrl);
  }
  return { url: `${hubUrl}/spaces/${options.space}`, commit, created, files };
}
