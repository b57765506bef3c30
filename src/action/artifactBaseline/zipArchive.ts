/**
 * A zip reader for baseline artifacts, pure (bytes in, files out) and suspicious: an artifact is written by whatever
 * ran in the baseline workflow, so every entry is checked before anything is inflated, and the archive is refused as
 * a whole, with a message naming the entry, when one of them is not a plain file under a plain relative path.
 * GitHub's artifact zips are ordinary zips (stored or deflate entries, a central directory at the end); zip64,
 * encryption, multi-disk archives and other compression methods are refused by name.
 */
import * as zlib from 'node:zlib';
import { InputError } from '../../errors.js';
import { oneLine } from '../../inputText.js';

export interface ZipLimits {
  /** Largest uncompressed size of one entry. */
  maxEntryBytes: number;
  /** Largest sum of the uncompressed sizes of all entries (a zip bomb declares or inflates past it). */
  maxTotalBytes: number;
  maxEntries: number;
}

/** sql.js holds the whole database in memory: 1 GiB is already more than a run database should need. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntryBytes: 1 << 30, maxTotalBytes: 1 << 30, maxEntries: 10_000 };

export interface ZipEntry {
  /** The path inside the archive, `/`-separated, checked to be relative and without `..`. */
  name: string;
  method: 'stored' | 'deflate';
  compressedSize: number;
  size: number;
  crc32: number;
  /** Where the entry's compressed bytes start in the archive. */
  dataOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const HOST_UNIX = 3;
const DOS_DIRECTORY = 0x10;

function refuse(where: string, why: string): never {
  throw new InputError(`${where}: ${why}`);
}

function findEndOfCentralDirectory(zip: Buffer, where: string): number {
  // The record is the last thing in the file, followed by a comment of at most 65,535 bytes.
  const lowest = Math.max(0, zip.length - EOCD_SIZE - 0xffff);
  for (let at = zip.length - EOCD_SIZE; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === EOCD_SIGNATURE && at + EOCD_SIZE + zip.readUInt16LE(at + 20) === zip.length) return at;
  }
  return refuse(where, 'not a zip archive (no end of central directory record)');
}

/** An entry name that extracts inside the destination and means the same on every system, or a refusal. */
function checkName(name: string, where: string): void {
  const quoted = JSON.stringify(oneLine(name));
  if (name === '') refuse(where, 'an entry has an empty name');
  if (/[\u0000-\u001f\u007f]/.test(name)) refuse(where, `entry ${quoted} has a control character in its name`);
  if (name.includes('\\')) refuse(where, `entry ${quoted} has a backslash in its name (a Windows path)`);
  if (name.startsWith('/')) refuse(where, `entry ${quoted} is an absolute path`);
  if (/^[A-Za-z]:/.test(name)) refuse(where, `entry ${quoted} starts with a drive letter`);
  if (name.split('/').includes('..')) refuse(where, `entry ${quoted} climbs out of the archive with \`..\``);
}

function fileType(versionMadeBy: number, externalAttributes: number, name: string): 'file' | 'directory' | string {
  if (versionMadeBy >>> 8 === HOST_UNIX) {
    const mode = (externalAttributes >>> 16) & S_IFMT;
    if (mode === S_IFLNK) return 'a symbolic link';
    if (mode === S_IFDIR) return 'directory';
    if (mode !== 0 && mode !== S_IFREG) return `a special file (mode ${mode.toString(8)})`;
  }
  if (name.endsWith('/') || (externalAttributes & DOS_DIRECTORY) !== 0) return 'directory';
  return 'file';
}

/**
 * The archive's regular files, every entry checked: names (no `..`, absolute paths, backslashes or drive letters, no
 * duplicates), types (no links or special files; directories carry nothing and are left out), methods (stored or
 * deflate), no encryption, no zip64, sizes under the limits, entries inside the archive and not overlapping.
 * `where` names the archive in every message.
 */
export function listZipEntries(zip: Buffer, where: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  const { count, centralOffset, centralSize } = centralDirectory(zip, where, limits);
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  const ranges: Array<[number, number, string]> = [];
  let total = 0;
  let at = centralOffset;
  for (let i = 0; i < count; i++) {
    const record = centralRecord(zip, at, i, count, centralOffset + centralSize, where);
    at = record.next;
    const { name } = record;
    checkName(name, where);
    if (seen.has(name)) refuse(where, `entry ${JSON.stringify(oneLine(name))} appears twice`);
    seen.add(name);
    if (!checkRecord(record, where, limits)) continue;
    total += record.size;
    if (total > limits.maxTotalBytes)
      refuse(
        where,
        `the entries add up to more than ${limits.maxTotalBytes} bytes uncompressed (a zip bomb?); refused at ${JSON.stringify(oneLine(name))}`,
      );
    const dataOffset = localDataOffset(zip, record, centralOffset, where);
    ranges.push([record.localOffset, dataOffset + record.compressedSize, name]);
    const { compressedSize, size, crc32 } = record;
    entries.push({
      name,
      method: record.methodCode === 0 ? 'stored' : 'deflate',
      compressedSize,
      size,
      crc32,
      dataOffset,
    });
  }
  // Entries sharing compressed bytes are the overlapping-file zip bomb.
  ranges.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i][0] < ranges[i - 1][1])
      refuse(where, `entries ${JSON.stringify(ranges[i - 1][2])} and ${JSON.stringify(ranges[i][2])} overlap`);
  }
  return entries;
}

const ZIP64_TEXT = 'a zip64 archive (over 4 GiB or 65,535 entries), which EvalVerdict does not read';

/** The end-of-central-directory record, checked: one disk, no zip64, within the entry limit and the archive. */
function centralDirectory(
  zip: Buffer,
  where: string,
  limits: ZipLimits,
): { count: number; centralOffset: number; centralSize: number } {
  if (zip.length < EOCD_SIZE) refuse(where, `not a zip archive (${zip.length} bytes)`);
  const eocd = findEndOfCentralDirectory(zip, where);
  const disk = zip.readUInt16LE(eocd + 4);
  const centralDisk = zip.readUInt16LE(eocd + 6);
  const entriesHere = zip.readUInt16LE(eocd + 8);
  const count = zip.readUInt16LE(eocd + 10);
  const centralSize = zip.readUInt32LE(eocd + 12);
  const centralOffset = zip.readUInt32LE(eocd + 16);
  if (
    count === 0xffff ||
    centralSize === 0xffffffff ||
    centralOffset === 0xffffffff ||
    (eocd >= 20 && zip.readUInt32LE(eocd - 20) === ZIP64_LOCATOR_SIGNATURE)
  )
    refuse(where, ZIP64_TEXT);
  if (disk !== 0 || centralDisk !== 0 || entriesHere !== count) refuse(where, 'a multi-disk (split) zip archive');
  if (count > limits.maxEntries) refuse(where, `${count} entries, more than the ${limits.maxEntries} allowed`);
  if (centralOffset + centralSize > eocd) refuse(where, 'the central directory lies outside the archive');
  return { count, centralOffset, centralSize };
}

interface CentralRecord {
  name: string;
  raw: Buffer;
  versionMadeBy: number;
  flags: number;
  methodCode: number;
  crc32: number;
  compressedSize: number;
  size: number;
  externalAttributes: number;
  localOffset: number;
  /** Where the next record starts. */
  next: number;
}

/** Central directory record `i` at `at`, its name inside the directory (which ends at `end`). */
function centralRecord(zip: Buffer, at: number, i: number, count: number, end: number, where: string): CentralRecord {
  if (at + CENTRAL_SIZE > end || zip.readUInt32LE(at) !== CENTRAL_SIGNATURE)
    refuse(where, `central directory entry ${i + 1} of ${count} is damaged`);
  const flags = zip.readUInt16LE(at + 8);
  const nameLength = zip.readUInt16LE(at + 28);
  const nameEnd = at + CENTRAL_SIZE + nameLength;
  if (nameEnd > end) refuse(where, `central directory entry ${i + 1} is damaged`);
  const raw = zip.subarray(at + CENTRAL_SIZE, nameEnd);
  return {
    // Bit 11: the name is UTF-8; otherwise CP437, read here as Latin-1 (only the checks and messages use it).
    name: raw.toString(flags & 0x800 ? 'utf8' : 'latin1'),
    raw,
    versionMadeBy: zip.readUInt16LE(at + 4),
    flags,
    methodCode: zip.readUInt16LE(at + 10),
    crc32: zip.readUInt32LE(at + 16),
    compressedSize: zip.readUInt32LE(at + 20),
    size: zip.readUInt32LE(at + 24),
    externalAttributes: zip.readUInt32LE(at + 38),
    localOffset: zip.readUInt32LE(at + 42),
    next: nameEnd + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32),
  };
}

/** A regular file EvalVerdict can read (true), a directory to leave out (false), or a refusal naming the entry. */
function checkRecord(r: CentralRecord, where: string, limits: ZipLimits): boolean {
  const quoted = JSON.stringify(oneLine(r.name));
  const type = fileType(r.versionMadeBy, r.externalAttributes, r.name);
  if (type === 'directory') return false;
  if (type !== 'file') refuse(where, `entry ${quoted} is ${type}, not a regular file`);
  if (r.flags & 0x41 || r.methodCode === 99) refuse(where, `entry ${quoted} is encrypted`);
  if (r.compressedSize === 0xffffffff || r.size === 0xffffffff || r.localOffset === 0xffffffff)
    refuse(where, `entry ${quoted} uses zip64 sizes (${ZIP64_TEXT})`);
  if (r.methodCode !== 0 && r.methodCode !== 8)
    refuse(where, `entry ${quoted} uses compression method ${r.methodCode} (only stored and deflate are read)`);
  if (r.methodCode === 0 && r.compressedSize !== r.size)
    refuse(where, `entry ${quoted} is stored but declares ${r.compressedSize} bytes stored for ${r.size} bytes`);
  if (r.size > limits.maxEntryBytes)
    refuse(where, `entry ${quoted} is ${r.size} bytes, over the ${limits.maxEntryBytes}-byte cap for one file`);
  return true;
}

/** Where the entry's data starts, after its local header, which must name the same file and lie in the archive. */
function localDataOffset(zip: Buffer, r: CentralRecord, centralOffset: number, where: string): number {
  const quoted = JSON.stringify(oneLine(r.name));
  const { localOffset } = r;
  if (localOffset + LOCAL_SIZE > centralOffset || zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE)
    refuse(where, `entry ${quoted}: its local header is missing or outside the archive`);
  const localNameLength = zip.readUInt16LE(localOffset + 26);
  const localExtraLength = zip.readUInt16LE(localOffset + 28);
  const localName = zip.subarray(localOffset + LOCAL_SIZE, localOffset + LOCAL_SIZE + localNameLength);
  if (!localName.equals(r.raw)) refuse(where, `entry ${quoted}: its local header names another file`);
  const dataOffset = localOffset + LOCAL_SIZE + localNameLength + localExtraLength;
  if (dataOffset + r.compressedSize > centralOffset) refuse(where, `entry ${quoted} runs past the archive's data`);
  return dataOffset;
}

/** CRC-32's table (polynomial 0xedb88320), made once at load: a constant, not state filled in on first use. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (zip's): zlib.crc32 on Node 20.15+ and 22.2+, else a table. */
export function crc32Of(data: Buffer): number {
  const native = (zlib as { crc32?: (data: Buffer) => number }).crc32;
  return typeof native === 'function' ? native(data) >>> 0 : tableCrc32(data);
}

/** CRC-32 from a table, for a Node without zlib.crc32. */
export function tableCrc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One entry's bytes, inflated no further than its declared size and checked against its size and CRC-32. */
export function extractZipEntry(zip: Buffer, entry: ZipEntry, where: string): Buffer {
  const quoted = JSON.stringify(oneLine(entry.name));
  const stored = zip.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  let data: Buffer;
  if (entry.method === 'stored') data = Buffer.from(stored);
  else {
    try {
      // One byte more than declared: inflating that far proves the declared size a lie (a zip bomb's trick).
      data = zlib.inflateRawSync(stored, { maxOutputLength: Math.max(1, entry.size + 1) });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
        refuse(where, `entry ${quoted} inflates past its declared ${entry.size} bytes (a zip bomb?)`);
      refuse(where, `entry ${quoted} is not valid deflate data (${(error as Error).message})`);
    }
  }
  if (data.length !== entry.size)
    refuse(where, `entry ${quoted} holds ${data.length} bytes, not the ${entry.size} its header declares`);
  if (crc32Of(data) !== entry.crc32) refuse(where, `entry ${quoted} fails its CRC-32 check (damaged or altered)`);
  return data;
}

/** A name that ends like a SQLite run database. */
export function isRunDatabaseName(name: string): boolean {
  return /\.(sqlite3?|db)$/i.test(name);
}

function listed(names: string[]): string {
  const shown = names.slice(0, 20).map((n) => JSON.stringify(oneLine(n)));
  return names.length > 20 ? `${shown.join(', ')} and ${names.length - 20} more` : shown.join(', ');
}

/**
 * The one run database in the archive: the entry named `path` when given (a leading `./` ignored), else the one file
 * named *.sqlite, *.sqlite3 or *.db. None, or more than one, is an error naming the archive's files.
 */
export function pickRunDatabase(
  entries: ZipEntry[],
  where: string,
  path: string | null,
  pathInput = 'baseline-path',
): ZipEntry {
  const names = entries.map((e) => e.name);
  const contents = names.length === 0 ? 'it holds no files' : `it holds ${listed(names)}`;
  if (path !== null) {
    const wanted = path.replace(/^(\.\/)+/, '');
    const found = entries.find((e) => e.name === wanted);
    if (!found) refuse(where, `no entry ${JSON.stringify(oneLine(wanted))} (input \`${pathInput}\`); ${contents}`);
    return found;
  }
  const databases = entries.filter((e) => isRunDatabaseName(e.name));
  if (databases.length === 0)
    refuse(where, `no run database (*.sqlite, *.sqlite3 or *.db) in the archive; ${contents}`);
  if (databases.length > 1)
    refuse(
      where,
      `${databases.length} run databases (${listed(databases.map((e) => e.name))}); name the one to use with input \`${pathInput}\``,
    );
  return databases[0];
}

/** The archive's run database (see pickRunDatabase), checked and extracted. */
export function extractRunDatabase(
  zip: Buffer,
  where: string,
  options: { path?: string | null; limits?: ZipLimits; pathInput?: string } = {},
): { name: string; data: Buffer } {
  const entries = listZipEntries(zip, where, options.limits ?? DEFAULT_ZIP_LIMITS);
  const entry = pickRunDatabase(entries, where, options.path ?? null, options.pathInput);
  return { name: entry.name, data: extractZipEntry(zip, entry, where) };
}
