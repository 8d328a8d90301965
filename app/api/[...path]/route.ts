import { handleRestRequest } from "@/server/api/rest/app-handler";

// Every partner and distributor REST path (/api/v1/... and the unversioned /api/integrations/...)
// is a tRPC procedure with OpenAPI meta; server/api/rest/dispatcher.ts routes and answers them.
export const dynamic = "force-dynamic";

export const GET = handleRestRequest;
export const POST = handleRestRequest;
export const PUT = handleRestRequest;
export const PATCH = handleRestRequest;
export const DELETE = handleRestRequest;
export const OPTIONS = handleRestRequest;
