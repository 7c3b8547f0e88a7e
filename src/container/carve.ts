// Finding containers embedded in any binary (game packs, executables, libraries): every 'DXBC' in the
// bytes is a candidate; it is kept when its header is plausible by what fxc and dxc always write
// (containers.md, "Container": version word 1, a total size inside the file, a part count whose
// directory fits, part offsets inside the container), when parseContainer reads it, and when its digest
// verifies or is zero. Every rejected candidate is counted by reason. No Node API.

import { IridiaError } from '../errors.js';
import { digestState, parseContainer, HEADER_SIZE, PART_HEADER_SIZE, type DigestState } from './container.js';

export type CarveRejection =
  | 'truncated-header' // fewer than 32 bytes after the magic's start
  | 'version' // the version word is not 1
  | 'size-too-small' // total size below the header and directory
  | 'size-past-end' // total size past the end of the data
  | 'part-count' // zero parts, or a directory that does not fit in the total size
  | 'part-offset' // a part offset outside the container
  | 'unreadable' // parseContainer refused it (sizes, overlaps)
  | 'stale-digest' // the digest neither verifies nor is zero
  | 'unsigned'; // the digest is zero (kept unless CarveOptions.unsigned is false)

export interface CarveOptions {
  /** Keep containers whose digest is zero (fxc /Qstrip..., dxc without validation). Default true. */
  readonly unsigned?: boolean;
  /** Keep containers whose digest does not verify. Default false. */
  readonly stale?: boolean;
}

export interface CarvedContainer {
  /** Byte offset of the container in the scanned data. */
  readonly offset: number;
  readonly size: number;
  /** 'stale' only when CarveOptions.stale keeps such containers. */
  readonly digest: DigestState;
  /** A view of the container's bytes in the scanned data. */
  readonly bytes: Uint8Array;
}

export interface CarveResult {
  readonly found: CarvedContainer[];
  /** Candidates rejected, counted by reason. */
  readonly rejected: Partial<Record<CarveRejection, number>>;
  /** Offsets and reasons of the rejected candidates (in scan order). */
  readonly rejections: { readonly offset: number; readonly reason: CarveRejection; readonly detail: string }[];
}

const M0 = 0x44; // 'D'

/**
 * Scans `data` for containers. A container found is skipped over (so the shaders an effect embeds
 * inside its own container are not reported twice); a rejected candidate is skipped by one byte.
 */
export function carveContainers(data: Uint8Array, options: CarveOptions = {}): CarveResult {
  const found: CarvedContainer[] = [];
  const rejected: Partial<Record<CarveRejection, number>> = {};
  const rejections: CarveResult['rejections'] = [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = data.indexOf(M0);
  while (at >= 0 && at <= data.byteLength - 4) {
    if (data[at + 1] === 0x58 && data[at + 2] === 0x42 && data[at + 3] === 0x43) {
      const r = candidate(data, view, at, options);
      if ('reason' in r) {
        rejected[r.reason] = (rejected[r.reason] ?? 0) + 1;
        rejections.push({ offset: at, reason: r.reason, detail: r.detail });
      } else {
        found.push(r);
        at += r.size;
        at = data.indexOf(M0, at);
        continue;
      }
    }
    at = data.indexOf(M0, at + 1);
  }
  return { found, rejected, rejections };
}

function candidate(
  data: Uint8Array,
  view: DataView,
  at: number,
  options: CarveOptions,
): CarvedContainer | { reason: CarveRejection; detail: string } {
  const avail = data.byteLength - at;
  if (avail < HEADER_SIZE)
    return { reason: 'truncated-header', detail: `only ${avail} bytes from the magic to the end` };
  const version = view.getUint32(at + 20, true);
  if (version !== 1) return { reason: 'version', detail: `version word ${version}` };
  const total = view.getUint32(at + 24, true);
  const count = view.getUint32(at + 28, true);
  if (total > avail) return { reason: 'size-past-end', detail: `total size ${total}, ${avail} bytes left` };
  if (total < HEADER_SIZE) return { reason: 'size-too-small', detail: `total size ${total}` };
  if (count === 0 || count > (total - HEADER_SIZE) / (4 + PART_HEADER_SIZE)) {
    return { reason: 'part-count', detail: `part count ${count} in ${total} bytes` };
  }
  for (let i = 0; i < count; i++) {
    const off = view.getUint32(at + HEADER_SIZE + 4 * i, true);
    if (off < HEADER_SIZE + 4 * count || off > total - PART_HEADER_SIZE) {
      return { reason: 'part-offset', detail: `part ${i} at offset ${off}, outside ${total} bytes` };
    }
  }
  const bytes = data.subarray(at, at + total);
  let state: DigestState;
  try {
    state = digestState(parseContainer(bytes));
  } catch (e) {
    if (!(e instanceof IridiaError)) throw e;
    return { reason: 'unreadable', detail: `${e.code}: ${e.message}` };
  }
  if (state === 'stale' && !options.stale)
    return { reason: 'stale-digest', detail: 'the digest does not verify and is not zero' };
  if (state === 'unsigned' && options.unsigned === false) return { reason: 'unsigned', detail: 'the digest is zero' };
  return { offset: at, size: total, digest: state, bytes };
}
