/**
 * A child process of `listeners.ts` on Node.js versions that cannot share a port: it gets the
 * server's listening socket and sends it back `count` times. Each pass over the IPC channel
 * (SCM_RIGHTS) gives the server another descriptor of the same socket, which the server can poll
 * and accept from on its own. The socket arrives as a bare handle, so this process never listens
 * or accepts; it exits once the last copy is sent.
 */
process.on('message', (message: unknown, handle: unknown) => {
  const count = (message as { copies?: unknown } | null)?.copies;
  if (!handle || typeof count !== 'number' || !process.send) return;
  let left = count;
  const next = (err?: Error | null): void => {
    if (err) process.exit(1);
    if (left-- <= 0) return process.disconnect();
    process.send!({ copy: true }, handle as never, {}, next);
  };
  next();
});
