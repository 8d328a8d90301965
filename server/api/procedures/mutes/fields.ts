import { z } from "zod";
import { successTrue } from "../../schemas";

/** A customer's mutes: under the customer's integrations (docs/notifications.md, "Mutes"). */
export const MUTES_PATH = "/api/v1/integrations/customer/{customerId}/mutes";
export const MUTES_TAGS = ["Partner: customers"];

export const muteView = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    email: z.string().nullable().meta({ description: "The muted mailbox; null: every mailbox (of the breach)" }),
    breachId: z.string().nullable().meta({ description: "The muted breach (the customer's breach list's id); null: every breach" }),
    breachName: z.string().nullable().meta({ description: "The catalogue breach's name, with breachId" }),
    until: z.string().nullable().meta({ format: "date-time", description: "When the mute ends; null: never" }),
    mutedBy: z.enum(["partner", "customer", "staff"]),
    createdAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "NotificationMute" });

export const muteOutput = z.object({ success: successTrue, mute: muteView });
export const muteListOutput = z.object({ success: successTrue, mutes: z.array(muteView) });
