/**
 * Writing the files a command is asked for (run databases, reports, golden sets): each through a temporary sibling
 * and a rename, so nothing is ever half-written, and a path that cannot be written as the user's mistake
 * (`PATH: cannot write (reason)`, an InputError: exit 2), never a stack trace.
 */
import {
  accessSync,
  chmodSync,
  chownSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Stats } from 'node:fs';
import { InputError } from '../errors.js';

/** Why `file` cannot be written, in words, from the error of writing it (or its temporary sibling). */
function reason(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return `no such directory: ${dirname(file)}`;
    case 'ENOTDIR':
      return 'a parent of it is not a directory';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}

export function cannotWrite(file: string, error: unknown): InputError {
  return new InputError(`${file}: cannot write (${reason(file, error)})`);
}

/** Bytes written by one writeSync at most: writeFileSync refuses 2 GiB and more (ERR_OUT_OF_RANGE); a run database may be larger. */
const WRITE_CHUNK = 1 << 30;

/** `bytes` as the whole content of a new file, in pieces of at most `chunk` bytes. */
export function writeWhole(file: string, bytes: Uint8Array | string, chunk = WRITE_CHUNK): void {
  if (typeof bytes === 'string') {
    writeFileSync(file, bytes);
    return;
  }
  const fd = openSync(file, 'w');
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, Math.min(chunk, bytes.length - at));
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes every file or none: first each to a temporary sibling (any failure removes them all and throws
 * `PATH: cannot write (reason)`), then each temporary file renamed over its target. A target that exists is checked
 * first: a directory, or a file that may not be written (read-only, which a rename would replace all the same), is
 * refused before anything is written.
 */
export function writeOutputFiles(files: ReadonlyArray<readonly [file: string, bytes: Uint8Array | string]>): void {
  const written: Array<[tmp: string, target: string, named: string]> = [];
  let file = '';
  try {
    for (const [named, bytes] of files) {
      file = named;
      // An existing file is replaced where it is (a symbolic link keeps pointing at it) and keeps its permissions
      // (a private database stays private): the rename would otherwise put a new file with the umask's in its place.
      const was = checkTarget(named);
      const target = was !== null ? realpathSync(named) : named;
      const tmp = temporaryName(target);
      written.push([tmp, target, named]);
      writeWhole(tmp, bytes);
      if (was !== null) {
        // Its owner too, where this process may give it (root rewriting a user's database); elsewhere chown fails,
        // and the file is the writer's own as any new file is.
        try {
          if (was.uid !== process.getuid?.() || was.gid !== process.getgid?.()) chownSync(tmp, was.uid, was.gid);
        } catch {
          // not permitted: keep the writer's
        }
        chmodSync(tmp, was.mode & 0o7777);
      }
    }
    while (written.length > 0) {
      const [tmp, target, named] = written[0];
      file = named;
      renameSync(tmp, target);
      written.shift();
    }
  } catch (error) {
    for (const [tmp] of written) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
    }
    throw cannotWrite(file, error);
  }
}

/** One file, written atomically; `PATH: cannot write (reason)` when it cannot be. */
export function writeFileAtomically(file: string, bytes: Uint8Array | string): void {
  writeOutputFiles([[file, bytes]]);
}

/**
 * Output files that must not exist yet (a command that creates files refuses to replace one unless told to):
 * `PATH: already exists (hint)` for the first that does.
 */
export function refuseExisting(files: ReadonlyArray<string>, hint: string): void {
  for (const file of files) {
    if (existsSync(file)) throw new InputError(`${file}: already exists (${hint})`);
  }
}

/**
 * The target's status (that of the file a symbolic link points at), or null when there is none; an existing one
 * must be a file this process may write (throws the errno error that says why not).
 */
function checkTarget(file: string): Stats | null {
  if (!existsSync(file)) return null;
  const stats = statSync(file);
  if (stats.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
  accessSync(file, constants.W_OK);
  return stats;
}

/** Refuses two output flags naming one file (`--a and --b name the same file PATH`); unset flags are skipped. */
export function refuseSameOutput(outputs: ReadonlyArray<readonly [flag: string, file: string | undefined]>): void {
  const seen = new Map<string, string>();
  for (const [flag, file] of outputs) {
    if (file === undefined) continue;
    const where = canonicalPath(file);
    const other = seen.get(where);
    if (other !== undefined) throw new InputError(`${other} and ${flag} name the same file ${file}`);
    seen.set(where, flag);
  }
}

/**
 * The file a path is written to (writeOutputFiles replaces what a symbolic link points at): its real path, or, for
 * a file not there yet, its folder's real path and its name.
 */
function canonicalPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return join(realpathSync(dirname(resolve(file))), basename(file));
    } catch {
      return resolve(file);
    }
  }
}

let temporaries = 0;

/** A temporary sibling of `file` (same directory, so the rename is atomic), short whatever the length of its name. */
function temporaryName(file: string): string {
  return join(dirname(file), `.evalgate-${process.pid}-${++temporaries}.tmp`);
}

/** The file at `path` as the system knows it (device and inode, after symbolic links), or null when there is none. */
function fileIdentity(path: string): string | null {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}

/**
 * Refuses an output path that is one of the inputs (the same path after symbolic links, or the same file by device
 * and inode: a hard link), before anything is read or written: `--json c.sqlite` would replace the candidate
 * database with the report. Unset outputs and inputs are skipped.
 */
export function refuseOutputOverInput(
  outputs: ReadonlyArray<readonly [flag: string, file: string | null | undefined]>,
  inputs: ReadonlyArray<readonly [what: string, file: string | null | undefined]>,
): void {
  const known = inputs
    .filter((input): input is readonly [string, string] => typeof input[1] === 'string' && input[1] !== '')
    .map(([what, file]) => ({ what, file, path: canonicalPath(file), id: fileIdentity(file) }));
  for (const [flag, file] of outputs) {
    if (typeof file !== 'string' || file === '') continue;
    const path = canonicalPath(file);
    const id = fileIdentity(file);
    const input = known.find((k) => k.path === path || (id !== null && k.id === id));
    if (input !== undefined) {
      throw new InputError(
        `${flag} ${file} is the ${input.what} ${input.file}: an output never replaces an input; name another file`,
      );
    }
  }
}
