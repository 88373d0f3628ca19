/**
 * Errors that mean "the database cannot serve right now" rather than "this request is wrong":
 * they become 503 ServiceUnavailable, and /readyz reports not ready.
 */
const SQLITE_UNAVAILABLE = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
];
const NODE_NETWORK = ['EIO', 'ENOSPC', 'EROFS', 'EDQUOT', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'];
// PostgreSQL: class 08 connection exceptions, 53 insufficient resources, 57P0x shutdowns.
const PG_UNAVAILABLE = /^(08|53|57P0)/;
const PG_CLIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable|the database system is (starting up|shutting down)/i;

export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SQLITE_UNAVAILABLE.some((c) => code === c || code.startsWith(`${c}_`))) return true;
    if (NODE_NETWORK.includes(code)) return true;
    if (PG_UNAVAILABLE.test(code)) return true;
  }
  if (PG_CLIENT_MESSAGES.test(error.message)) return true;
  if (error.name === 'AggregateError') return (error as AggregateError).errors.some(isUnavailableError);
  return false;
}

/** A UNIQUE or PRIMARY KEY constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
