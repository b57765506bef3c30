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
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Stats } from 'node:fs';
import { InputError } from '../errors.js';
import { inertLines } from '../inputText.js';

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

/**
 * `bytes` as the whole content of a new file, in pieces of at most `chunk` bytes. The file is created exclusively
 * (a file or link put there meanwhile is not followed) with `mode` from its first byte: a private database's bytes
 * are never readable by others, not even while they are written.
 */
export function writeWhole(file: string, bytes: Uint8Array | string, chunk = WRITE_CHUNK, mode = 0o600): void {
  const fd = openSync(file, 'wx', mode);
  try {
    writeAll(fd, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, chunk);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array, chunk = WRITE_CHUNK): void {
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, Math.min(chunk, bytes.length - at));
    } catch (error) {
      // A pipe Node made non-blocking (stdout) is full until its reader reads: wait a little and go on.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(PAUSE, 0, 0, 2);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** The standard stream a path names (`/dev/stdout`, `/dev/fd/2`, `/proc/self/fd/1`), or null. */
function standardStream(file: string): 1 | 2 | null {
  const m = /^\/(?:dev\/(?:std(out|err)|fd\/([12]))|proc\/(?:self|\d+)\/fd\/([12]))$/.exec(resolve(file));
  if (m === null) return null;
  if (
    m[3] !== undefined &&
    !resolve(file).startsWith('/proc/self/') &&
    !resolve(file).startsWith(`/proc/${process.pid}/`)
  ) {
    return null;
  }
  return m[1] === 'out' || m[2] === '1' || m[3] === '1' ? 1 : 2;
}

/**
 * Whether `file` is written through rather than replaced: a standard stream (`--json /dev/stdout`, into a pipe or
 * a redirect), or an existing target that is no regular file (a device such as /dev/null or /dev/full, a FIFO). A
 * rename would put a regular file in a device's place, or over the file a redirect writes to.
 */
function writtenThrough(file: string): boolean {
  if (standardStream(file) !== null) return true;
  try {
    const stats = statSync(file);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Writes `bytes` into a standard stream or a special file (no temporary file, no rename). Text goes out as the
 * CLI's own output does, inert to the Actions runner (`--json /dev/stdout` lands in a workflow's log); bytes as
 * they are.
 */
function writeThrough(file: string, bytes: Uint8Array | string): void {
  const data = typeof bytes === 'string' ? Buffer.from(inertLines(bytes)) : bytes;
  const stream = standardStream(file);
  if (stream !== null) {
    writeAll(stream, data);
    return;
  }
  // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of waiting for one.
  const fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
  try {
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes every file or none: first each to a temporary sibling (any failure removes them all and throws
 * `PATH: cannot write (reason)`), then each temporary file renamed over its target. A target that exists is checked
 * first: a directory, or a file that may not be written (read-only, which a rename would replace all the same), is
 * refused before anything is written. A standard stream or a device is written through (writtenThrough), after
 * the temporary files are written and before they are renamed.
 */
export function writeOutputFiles(files: ReadonlyArray<readonly [file: string, bytes: Uint8Array | string]>): void {
  const written: Array<[tmp: string, target: string, named: string]> = [];
  const through = files.filter(([named]) => writtenThrough(named));
  let file = '';
  watchSignals();
  try {
    for (const [named, bytes] of files) {
      file = named;
      if (through.some(([t]) => t === named)) continue;
      // An existing file is replaced where it is (a symbolic link keeps pointing at it) and keeps its permissions
      // (a private database stays private): the rename would otherwise put a new file with the umask's in its place.
      const was = checkTarget(named);
      const target = was !== null ? realpathSync(named) : named;
      sweepTemporaries(dirname(target));
      const tmp = temporaryName(target);
      written.push([tmp, target, named]);
      pending.add(tmp);
      writeWhole(tmp, bytes, WRITE_CHUNK, was !== null ? was.mode & 0o777 : 0o600);
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
    for (const [named, bytes] of through) {
      file = named;
      writeThrough(named, bytes);
    }
    while (written.length > 0) {
      const [tmp, target, named] = written[0];
      file = named;
      renameSync(tmp, target);
      pending.delete(tmp);
      written.shift();
    }
  } catch (error) {
    for (const [tmp] of written) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      pending.delete(tmp);
    }
    throw cannotWrite(file, error);
  }
}

/** Temporary files being written now: removed if SIGINT or SIGTERM ends the process. */
const pending = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
let watching = false;

function onSignal(signal: NodeJS.Signals): void {
  for (const tmp of pending) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  }
  pending.clear();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  // Ends as the signal would have: its default action, now that no listener of ours is left.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/**
 * From the first write on, SIGINT and SIGTERM remove the temporary files before the process ends as the signal
 * would end it. The write is synchronous, so a signal that comes during it is handled once it returns; the
 * listeners stay (removing them then would drop that signal), and do nothing else.
 */
function watchSignals(): void {
  if (watching) return;
  watching = true;
  for (const s of SIGNALS) process.on(s, onSignal);
}

/** When this process started (ms since the epoch): temporary files older than that are no one's now. */
const processStart = Date.now() - process.uptime() * 1000;
const TEMPORARY = /^\.evalverdict-(\d+)-\d+\.tmp$/;

/**
 * Removes temporary files an earlier run left in `dir` (killed with SIGKILL, or the machine stopped): EvalVerdict's own
 * name pattern, last changed before this process started, and written by a process that is gone.
 */
function sweepTemporaries(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = TEMPORARY.exec(name);
    if (m === null) continue;
    const path = join(dir, name);
    const pid = Number(m[1]);
    try {
      const stats = lstatSync(path);
      // Our own pid on an older file: a process before us had it.
      if (!stats.isFile() || stats.mtimeMs >= processStart || (pid !== process.pid && isAlive(pid))) continue;
      unlinkSync(path);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
  return join(dirname(file), `.evalverdict-${process.pid}-${++temporaries}.tmp`);
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
