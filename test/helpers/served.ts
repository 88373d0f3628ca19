/**
 * Sends a request again while the server sheds it (503, from its event-loop guard or admission
 * limits), after the Retry-After it names, as a client would; returns the first other reply, or
 * the last 503 once `ms` has passed. For setup requests, where shedding is not the subject: a
 * just-started server on a busy machine sheds for a second or two (its first event-loop sample
 * holds the start). A shed request did nothing: it is refused before its body is read.
 */
export async function untilServed<T extends { status: number; headers: Headers }>(send: () => Promise<T>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const reply = await send();
    if (reply.status !== 503 || Date.now() > deadline) return reply;
    const after = Number(reply.headers.get('retry-after')) * 1_000 || 200;
    await new Promise((r) => setTimeout(r, Math.min(after, Math.max(0, deadline - Date.now()))));
  }
}
