import { getAppDb } from "../../db/instance";
import { publishRestDispatcher } from "../../http/rest-fast-path";
import { appRouter } from "../root";
import { createRestDispatcher, fetchRestHandler } from "./dispatcher";

const dispatchRest = createRestDispatcher({ router: appRouter, getDb: getAppDb });

/** The REST handler of the running server (app/api/[...path]/route.ts), on the app's database. */
export const handleRestRequest = fetchRestHandler(dispatchRest);

// From here on the production server (scripts/serve.ts) calls the dispatcher without Next.js's request pipeline.
publishRestDispatcher(dispatchRest);
