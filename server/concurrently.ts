/**
 * Runs `work` on the items in their order, at most `lanes` at a time, and takes no new item once
 * `stopping()` is true. Resolves with how many items were started, once every lane is done; if
 * any item failed, rejects with the first failure then (no lane is left running).
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  lanes: number,
  work: (item: T) => Promise<void>,
  { stopping = () => false }: { stopping?: () => boolean } = {},
): Promise<number> {
  let next = 0;
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      while (next < items.length && !stopping()) await work(items[next++]!);
    }),
  );
  const failure = settled.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  return next;
}
