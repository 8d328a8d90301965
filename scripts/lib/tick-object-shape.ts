import { createHook } from "node:async_hooks";
import { processSlot } from "../../server/process-slot";

// Process-wide: dist/start.js and dist/serve.js are bundled apart, and each may ask.
const heldTickObject = processSlot<object>("held-tick-object");

/**
 * Holds one of Node's process.nextTick objects for the life of the process. nextTick builds each
 * from an object literal with computed symbol keys, and V8 turns such a literal's inline caches
 * generic for good once they meet a second hidden class. A full collection while no tick object is
 * alive (the memory reducer's, when the server idles) frees the hidden classes the literal builds
 * through, so the next tick object brings new ones; from then on every nextTick, of every socket
 * and stream, went through V8's runtime (docs/measures.md, "Choices in the code"). A held object keeps
 * the chain alive. Call it early, before the process first idles. Returns whether one is held.
 */
export function holdTickObjectShape(): boolean {
  if (heldTickObject.get()) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject") heldTickObject.set(resource as object);
    },
  });
  hook.enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
  return heldTickObject.get() !== undefined;
}
