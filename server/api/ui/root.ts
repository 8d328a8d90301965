import { createCallerFactory, router } from "../trpc";
import { mail } from "./mail";
import { me } from "./me";
import { unsubscribe } from "./unsubscribe";

/**
 * The procedures of the UIs (admin UI, customer portal), served by tRPC at /api/trpc and called
 * in-process by server components. Separate from appRouter so no UI procedure becomes a REST path.
 */
export const uiRouter = router({
  admin: router({ me, mail }),
  notifications: router({ unsubscribe }),
});

export type UiRouter = typeof uiRouter;
export const createUiCaller = createCallerFactory(uiRouter);
