import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { inngestFunctionsForApp } from "@/server/startup/background";

// Inngest calls this route to run the functions (used when INNGEST_EVENT_KEY / INNGEST_DEV is set).
export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctionsForApp() });
