import { handleUiRequest } from "@/server/api/ui/handler";

export const dynamic = "force-dynamic";
export const GET = handleUiRequest;
export const POST = handleUiRequest;
