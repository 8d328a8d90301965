const state = globalThis as unknown as { __backgroundStarted?: boolean };

/**
 * Next.js calls register() once per server process, before it serves requests: the process's
 * background driver is chosen here, where the process is composed, so server/ knows neither.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || state.__backgroundStarted) return;
  state.__backgroundStarted = true;
  const { config } = await import("./server/config");
  if (config.inngestEnabled()) {
    const { startInngestDriver } = await import("./inngest/driver");
    await startInngestDriver();
  } else {
    const { startInProcessWork } = await import("./server/startup/background");
    await startInProcessWork();
  }
}
