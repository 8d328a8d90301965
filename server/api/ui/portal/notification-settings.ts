import { z } from "zod";
import { LOCALE_CODES } from "../../../i18n/locales";
import * as settings from "../../../notifications/settings";
import { customerProcedure } from "../../trpc";

/** The customer's own e-mail settings (the portal's settings page). */
export const notificationSettings = customerProcedure
  .input(z.object({}).optional())
  .query(({ ctx }) => settings.notificationSettings(ctx.db, ctx.customer.id));

/** Changes them; a recipient must be one of the customer's alert recipients. */
export const updateNotificationSettings = customerProcedure
  .input(
    z.object({
      breachAlerts: z.boolean().optional(),
      monthlyReport: z.boolean().optional(),
      locale: z.enum(LOCALE_CODES).optional(),
      recipients: z
        .array(z.object({ email: z.string().max(320), kind: z.enum(settings.RECIPIENT_KINDS), receive: z.boolean() }))
        .max(400)
        .optional(),
    }),
  )
  .mutation(({ ctx, input }) => settings.updateNotificationSettings(ctx.db, ctx.customer.id, input));
