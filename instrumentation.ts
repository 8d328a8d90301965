/** Next.js calls register() once per server process, before it serves requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundWork } = await import("./server/startup/background");
  await startBackgroundWork();
}
