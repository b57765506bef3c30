// Preloaded (`--import`) into the action's process by scripts/action-local.ts: a local run must reach nothing but
// the stand-in API on this machine, so a connection to any other host fails before a byte is sent (DNS included:
// the lookup happens inside connect, after this check). Every TCP and TLS client in Node, fetch's too, goes
// through net.Socket's connect.
import net from 'node:net';

/** Printed on stderr for each refused connection; scripts/action-local.ts counts these lines. */
export const REFUSED_MARKER = 'action:local: refused a connection to';

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** The host a connect() call names, or null for a Unix socket or named pipe (never the network). */
function hostOf(args) {
  // net.connect() passes its normalised arguments as one array ([options, callback]).
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first !== null && typeof first === 'object') return first.path !== undefined ? null : (first.host ?? 'localhost');
  if (typeof first === 'string' && !/^\d+$/.test(first)) return null;
  return typeof args[1] === 'string' ? args[1] : 'localhost';
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const host = hostOf(args);
  if (host === null || LOOPBACK.has(String(host).toLowerCase())) return connect.apply(this, args);
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const port = first !== null && typeof first === 'object' ? first.port : first;
  process.stderr.write(`${REFUSED_MARKER} ${host}:${port} (a local run reaches only the stand-in API)\n`);
  const error = new Error(`connection to ${host}:${port} refused: a local run reaches only the stand-in API`);
  error.code = 'ECONNREFUSED';
  process.nextTick(() => this.destroy(error));
  return this;
};
