/** A worker for `Threads` tests: holds its thread for `ms`, as a render does, and gives back `id`. */
export default function busy(task: { id: number; ms: number }): number {
  const end = Date.now() + task.ms;
  while (Date.now() < end);
  return task.id;
}
