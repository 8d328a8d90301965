/**
 * A value shared by every copy of a module in this process. Next.js compiles instrumentation.ts,
 * each route handler and the server script as separate entries, each with its own copy of the
 * service's modules; state that must be one per process (the job waker, the shutdown steps, the
 * metrics registry, ...) lives on globalThis under a registered symbol instead of a module variable.
 */
export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
  /** The value, made by `create` on first use. */
  getOrCreate(create: () => T): T;
}

export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = Symbol.for(`exposure-monitor.${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return {
    get: () => store[key],
    set: (value) => {
      store[key] = value;
    },
    getOrCreate: (create) => (store[key] ??= create()),
  };
}
