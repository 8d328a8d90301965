import { getAppDb } from "../../db/instance";
import { publishRestHandler } from "../../http/rest-fast-path";
import { appRouter, createCaller } from "../root";
import { createRestHandler } from "./dispatcher";

/** The REST handler of the running server (app/api/[...path]/route.ts), on the app's database. */
export const handleRestRequest = createRestHandler({ router: appRouter, createCaller, getDb: getAppDb });

// From here on the production server (scripts/serve.ts) calls it without Next.js's request pipeline.
publishRestHandler(handleRestRequest);
