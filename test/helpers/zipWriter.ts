/**
 * A tiny zip writer for tests: stored and deflate entries (zlib.deflateRawSync), with every header field the
 * reader checks open to a lie (declared sizes, CRC, mode bits, flags, names), to build the malicious archives.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipWriterEntry {
  name: string;
  data?: Buffer | string;
  method?: 'stored' | 'deflate';
  /** Unix mode for the external attributes (default a regular file, 0o100644). */
  mode?: number;
  /** Overrides of what the headers declare. */
  size?: number;
  compressedSize?: number;
  crc?: number;
  flags?: number;
  methodCode?: number;
  /** Name in the local header, when it should differ from the central one. */
  localName?: string;
  /** No local record of its own: the central entry points at this offset (inside another entry's bytes). */
  pointAt?: number;
}

export function writeZip(entries: ZipWriterEntry[], options: { comment?: string } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
    const method = e.method ?? 'deflate';
    const body = method === 'deflate' ? deflateRawSync(data) : data;
    const name = Buffer.from(e.name, 'utf8');
    const localName = Buffer.from(e.localName ?? e.name, 'utf8');
    const crc = e.crc ?? crc32(data) >>> 0;
    const size = e.size ?? data.length;
    const compressedSize = e.compressedSize ?? body.length;
    const methodCode = e.methodCode ?? (method === 'deflate' ? 8 : 0);
    const flags = e.flags ?? 0x800;
    const local = Buffer.alloc(30);
    const at = e.pointAt ?? offset;
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(methodCode, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressedSize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(localName.length, 26);
    if (e.pointAt === undefined) locals.push(local, localName, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(methodCode, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressedSize, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(at, 42);
    centrals.push(central, name);
    if (e.pointAt === undefined) offset += 30 + localName.length + body.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const comment = Buffer.from(options.comment ?? '');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(centralDirectory.length, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, centralDirectory, eocd, comment]);
}
