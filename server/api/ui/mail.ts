import { z } from "zod";
import { NotificationStatus } from "../../db/generated/enums";
import { listNotifications, notificationAttachment, previewNotification } from "../../notifications/preview";
import { NOTIFICATION_KINDS } from "../../notifications/types";
import { router, staffProcedure } from "../trpc";

export const MAIL_PAGE_SIZE = 50;

/** The staff mail preview (/admin/mail): the messages of the staff member's distributor's customers. */
export const mail = router({
  list: staffProcedure
    .input(
      z.object({
        page: z.number().int().min(1).default(1),
        kind: z.enum(NOTIFICATION_KINDS).optional(),
        status: z.enum(Object.values(NotificationStatus)).optional(),
      }),
    )
    .query(({ ctx, input }) => listNotifications(ctx.db, ctx.staff.distributorId, { ...input, pageSize: MAIL_PAGE_SIZE })),
  get: staffProcedure
    .input(z.object({ id: z.string() }))
    .query(({ ctx, input }) => previewNotification(ctx.db, ctx.staff.distributorId, input.id)),
  attachment: staffProcedure
    .input(z.object({ id: z.string(), filename: z.string() }))
    .query(async ({ ctx, input }) => {
      const attachment = await notificationAttachment(ctx.db, ctx.staff.distributorId, input.id, input.filename);
      return { filename: attachment.filename, contentType: attachment.contentType, base64: attachment.content.toString("base64") };
    }),
});
